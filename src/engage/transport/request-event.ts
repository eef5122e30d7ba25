/** One attempt of one call, for metrics. `endpoint` is the template (no ids), e.g. `/{account_id}/inbox/mentions`. */
export interface RequestEvent {
  method: string;
  endpoint: string;
  /** HTTP status, null when no answer arrived. */
  status: number | null;
  durationMs: number;
  attempt: number;
  /** `ok`, or the error code of the attempt (e.g. `rate_limited`). */
  outcome: string;
}

export interface ClientStats {
  requests: number;
  failures: number;
  retries: number;
  inFlight: Record<'read' | 'write' | 'handover', number>;
  queued: Record<'read' | 'write' | 'handover', number>;
  budget: {
    remaining: number | null;
    resetAtMs: number | null;
    blockedUntilMs: number | null;
  };
}
