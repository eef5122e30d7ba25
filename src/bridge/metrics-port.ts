/**
 * What the bridge counts, as plain shapes: the composition root passes the Prometheus metrics of
 * `src/metrics/` (prom-client stays there), which fit them; tests may pass anything that does.
 */
export interface CounterPort<L extends string> {
  inc(labels: Partial<Record<L, string | number>>, value?: number): void;
}

export interface GaugePort {
  set(value: number): void;
}

export interface BridgeMetrics {
  readonly inboundMessages: CounterPort<'channel'>;
  readonly replies: CounterPort<'channel'>;
  readonly escalations: CounterPort<'reason'>;
  readonly returnsToBot: CounterPort<'reason'>;
  /** Escalation tags or notes the service did not take (the handover stood). */
  readonly annotationsRefused: CounterPort<'kind'>;
  /** Effects given up for good: parked, audited, listed by `status`. */
  readonly effectsDead: CounterPort<'kind'>;
  /** Inbound mentions parked for good after a permanent error: audited, listed by `status`. */
  readonly mentionsDead: CounterPort<'code'>;
  /** Items not taken: unreadable, or not ours (another topic, an unserved channel). */
  readonly skippedItems: CounterPort<'source' | 'reason'>;
  /** Customers' CSAT/NPS answers. */
  readonly surveyAnswers: CounterPort<'kind' | 'score' | 'channel'>;
  /**
   * API calls made to read the inbox: `list` (a page of the mentions list) and `recheck` (a recent customer mention
   * read again by id, for reply actions added later). `status` shows them per hour.
   */
  readonly pollCalls: CounterPort<'kind'>;
  /** A guess about the service seen not to hold (issue 26): the bridge took the safe side (`guess-report.ts`). */
  readonly guessesNotHeld?: CounterPort<'guess'>;
  readonly pollLagSeconds: GaugePort;
  readonly outboxPending: GaugePort;
}
