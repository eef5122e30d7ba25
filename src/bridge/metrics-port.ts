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
  readonly pollLagSeconds: GaugePort;
  readonly outboxPending: GaugePort;
}
