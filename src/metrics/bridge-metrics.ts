import { Registry, Counter, Histogram, Gauge, collectDefaultMetrics } from 'prom-client';

/** The bridge's Prometheus metrics; one registry per bridge so tests and several instances never share counters. */
export interface BridgeMetrics {
  readonly registry: Registry;
  readonly inboundMessages: Counter<'channel'>;
  readonly replies: Counter<'channel'>;
  readonly escalations: Counter<'reason'>;
  readonly returnsToBot: Counter<'reason'>;
  readonly surveyAnswers: Counter<'kind' | 'score' | 'channel'>;
  readonly apiCalls: Counter<'endpoint' | 'method' | 'status'>;
  /** Escalation tags or notes the service did not take on the mention (the handover stood). */
  readonly annotationsRefused: Counter<'kind'>;
  /** Effects given up for good (permanent error or retries used up): parked, audited, listed by `status`. */
  readonly effectsDead: Counter<'kind'>;
  /** Inbound mentions whose processing failed for good (e.g. the contact is gone): parked, audited, listed by `status`. */
  readonly mentionsDead: Counter<'code'>;
  readonly apiLatency: Histogram<'endpoint' | 'method'>;
  readonly queueDepth: Gauge;
  readonly pollLagSeconds: Gauge;
  readonly outboxPending: Gauge;
  readonly storeWrites: Gauge;
  readonly skippedItems: Counter<'source' | 'reason'>;
  /** Inbox reads: `list` (one page of the mentions list, all watched topics at once) or `recheck` (one mention by id). */
  readonly pollCalls: Counter<'kind'>;
  /** Times a guess about the service was seen not to hold (the bridge took the safe side), by guess. */
  readonly guessesNotHeld: Counter<'guess'>;
  /** With PostgreSQL: 1 while this instance is active (holds the lease), 0 while it is a standby. */
  readonly activeRole: Gauge;
  /** 1 on the label of the mode the bridge runs in (BRIDGE_MODE: live or shadow). */
  readonly mode: Gauge;
  /** Lease renewals that went through. */
  readonly leaseRenewals: Counter;
  /** Times this instance took the lease over after waiting as a standby. */
  readonly leaseTakeovers: Counter;
  /** Requests refused at a port before any work (`port`: webhook or slack; `reason`: secret, blocked, malformed, signature, origin...). */
  readonly refusedRequests: Counter<'port' | 'reason'>;
  text(): Promise<string>;
}

export function createBridgeMetrics(options: { defaultMetrics?: boolean } = {}): BridgeMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'engage_bridge_' });
  const registers = [registry];
  return {
    registry,
    inboundMessages: new Counter({
      name: 'engage_bridge_inbound_messages_total',
      help: 'Customer messages recorded',
      labelNames: ['channel'],
      registers,
    }),
    replies: new Counter({
      name: 'engage_bridge_replies_total',
      help: 'Bot replies published',
      labelNames: ['channel'],
      registers,
    }),
    escalations: new Counter({
      name: 'engage_bridge_escalations_total',
      help: 'Conversations handed to agents',
      labelNames: ['reason'],
      registers,
    }),
    returnsToBot: new Counter({
      name: 'engage_bridge_returns_to_bot_total',
      help: 'Contacts returned to the bot',
      labelNames: ['reason'],
      registers,
    }),
    surveyAnswers: new Counter({
      name: 'engage_bridge_survey_answers_total',
      help: 'CSAT and NPS answers recorded, by score',
      labelNames: ['kind', 'score', 'channel'],
      registers,
    }),
    apiCalls: new Counter({
      name: 'engage_bridge_api_calls_total',
      help: 'Engage API calls',
      labelNames: ['endpoint', 'method', 'status'],
      registers,
    }),
    apiLatency: new Histogram({
      name: 'engage_bridge_api_latency_seconds',
      help: 'Engage API call latency',
      labelNames: ['endpoint', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    annotationsRefused: new Counter({
      name: 'engage_bridge_escalation_annotations_refused_total',
      help: 'Escalation tags or notes the service did not take on the mention (the handover stood)',
      labelNames: ['kind'],
      registers,
    }),
    effectsDead: new Counter({
      name: 'engage_bridge_effects_dead_total',
      help: 'Effects given up for good (permanent error or retries used up)',
      labelNames: ['kind'],
      registers,
    }),
    mentionsDead: new Counter({
      name: 'engage_bridge_mentions_dead_total',
      help: 'Inbound mentions parked for good after a permanent error (never retried), by error code',
      labelNames: ['code'],
      registers,
    }),
    queueDepth: new Gauge({ name: 'engage_bridge_queue_depth', help: 'Inbound messages waiting to be processed', registers }),
    pollLagSeconds: new Gauge({
      name: 'engage_bridge_poll_lag_seconds',
      help: 'Seconds since the last successful poll',
      registers,
    }),
    outboxPending: new Gauge({ name: 'engage_bridge_outbox_pending', help: 'Effects not yet performed', registers }),
    storeWrites: new Gauge({ name: 'engage_bridge_store_writes', help: 'Store file writes since start (coalesced)', registers }),
    skippedItems: new Counter({
      name: 'engage_bridge_skipped_items_total',
      help: 'External items skipped, one by one, because they could not be read',
      labelNames: ['source', 'reason'],
      registers,
    }),
    guessesNotHeld: new Counter({
      name: 'engage_bridge_guess_not_held_total',
      help: 'Times a guess about the service (what the API description does not state) was seen not to hold; the bridge took the safe side',
      labelNames: ['guess'],
      registers,
    }),
    pollCalls: new Counter({
      name: 'engage_bridge_poll_calls_total',
      help: 'API calls made to read the inbox: list (a page of the mentions list) or recheck (a recent mention read again by id)',
      labelNames: ['kind'],
      registers,
    }),
    activeRole: new Gauge({
      name: 'engage_bridge_active',
      help: 'Role of this instance: 1 active (holds the store), 0 standby (waits for the PostgreSQL lease)',
      registers,
    }),
    mode: new Gauge({
      name: 'engage_bridge_mode',
      help: 'The mode the bridge runs in: 1 on mode="live" or mode="shadow" (shadow: reads and decides, writes nothing)',
      labelNames: ['mode'],
      registers,
    }),
    leaseRenewals: new Counter({
      name: 'engage_bridge_lease_renewals_total',
      help: 'PostgreSQL lease renewals that went through',
      registers,
    }),
    leaseTakeovers: new Counter({
      name: 'engage_bridge_lease_takeovers_total',
      help: 'Times this instance took the PostgreSQL lease over after waiting as a standby',
      registers,
    }),
    refusedRequests: new Counter({
      name: 'engage_bridge_refused_requests_total',
      help: 'Requests refused before any work (wrong secret, bad signature, malformed, blocked caller)',
      labelNames: ['port', 'reason'],
      registers,
    }),
    text: () => registry.metrics(),
  };
}

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
