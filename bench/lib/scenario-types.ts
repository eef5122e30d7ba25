import type { LatencySummary } from './percentiles.js';

/** What one benchmark scenario does. */
export interface ScenarioSpec {
  readonly name: string;
  readonly ingestion: 'poll' | 'webhook';
  readonly apiLatencyMs: number;
  readonly pollIntervalMs: number;
  /** Customers, each sending `rounds` messages per phase. */
  readonly contacts: number;
  readonly rounds: number;
  /** Throughput phase: everything at once. */
  readonly burst: boolean;
  /** Latency phase at this many messages per second (the same customers carry on); null skips it. */
  readonly pacedPerSecond: number | null;
  /** Customers who ask for a person at the end (calls per escalation). */
  readonly escalations: number;
  /** Conversations put in the store before the bridge starts. */
  readonly storedConversations: number;
  /** `ENGAGE_RATE_LIMIT_PER_HOUR` (0: none). */
  readonly rateLimitPerHour: number;
  /** Measure the client-alone limit after the bridge stops. */
  readonly limit: boolean;
  /** Contacts in flight: the bridge runs with it as `BRIDGE_MAX_CONCURRENT_CONTACTS`, the limit with as many workers. */
  readonly concurrency: number;
  /** Give up waiting for answers after this long without progress. */
  readonly stallMs: number;
  /** ...or this long after a phase's last message in any case (a slow bridge must not make the bench endless). */
  readonly phaseDeadlineMs: number;
}

/** One row of `bench/results/latest.json`; a figure that does not apply is null. */
export interface ScenarioResult {
  name: string;
  ingestion: 'poll' | 'webhook';
  api_latency_ms: number;
  poll_interval_ms: number;
  messages: number;
  throughput_per_s: number | null;
  limit_per_s: number | null;
  ratio: number | null;
  /** Replies per second of the client alone making the calls the bridge makes for a new contact (owner check, facts, claim) and its replies. */
  flow_limit_per_s: number | null;
  /** `throughput_per_s / flow_limit_per_s`: the bridge against what its required calls alone would allow. */
  flow_ratio: number | null;
  /** The bridge process's CPU (user + system) per answered message of the burst: with `flow_ratio`, the headline. */
  burst_cpu_ms_per_answer: number | null;
  latency_ms: LatencySummary;
  api_calls_per_answer: number | null;
  api_calls_per_escalation: number | null;
  peak_rss_mb: number | null;
  /** The most group commits in one second (sampled each second from /metrics). */
  store_writes_per_s: number | null;
  /** Group commits per second over the load: each is one SQLite transaction, its WAL synced. */
  fsyncs_per_s: number | null;
  /** Bytes the bridge process wrote to the disk during the load (`/proc/<pid>/io` write_bytes) ÷ answered messages. */
  disk_bytes_per_answer: number | null;
  /** What "durable" means for the store: synced to disk. */
  durability: 'fsync';
  stored_conversations: number;
  startup_ms: number | null;
  details: Record<string, unknown>;
}
