import type { AuditEntry, AuditSink, SlackLogger } from './ports.js';

const SUBJECT_MAX = 300;

/** Audits without letting a failing store break a Slack answer; the failure is logged instead. */
export function auditSafely(sink: AuditSink, logger: SlackLogger, entry: AuditEntry): void {
  const bounded = { ...entry, subject: entry.subject.slice(0, SUBJECT_MAX) };
  try {
    const pending = sink.audit(bounded);
    if (pending !== undefined) {
      pending.catch((error: unknown) => logFailure(logger, bounded, error));
    }
  } catch (error) {
    logFailure(logger, bounded, error);
  }
}

function logFailure(logger: SlackLogger, entry: AuditEntry, error: unknown): void {
  logger.error(
    { action: entry.action, actor: entry.actor, err: error instanceof Error ? error.message : String(error) },
    'Could not write the audit entry',
  );
}
