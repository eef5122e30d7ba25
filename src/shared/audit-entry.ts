/** One line of the audit log: who did what to which subject, and how it ended. */
export interface AuditEntry {
  /** UNIX milliseconds. */
  readonly at: number;
  /** `transport:id` (see `actorText`), or the bridge's own name for what it did by itself. */
  readonly actor: string;
  readonly action: string;
  readonly subject: string;
  /** Why it was refused or failed. */
  readonly reason?: string;
  readonly result?: string;
}

/** The audit action under which a customer's CSAT/NPS answer is kept (kept `BRIDGE_SURVEY_RETENTION_DAYS`). */
export const SURVEY_ANSWER_ACTION = 'survey answer';
