import type { ScenarioSpec } from './scenario-types.js';

export interface BenchSize {
  contacts: number;
  rounds: number;
  pacedPerSecond: number;
  escalations: number;
  storedConversations: number;
}

/** `npm run bench`: a few minutes on a 2-core machine. */
export const FULL_SIZE: BenchSize = { contacts: 200, rounds: 5, pacedPerSecond: 100, escalations: 20, storedConversations: 50_000 };
/** The test suite's smoke run: seconds. */
export const SMOKE_SIZE: BenchSize = { contacts: 10, rounds: 2, pacedPerSecond: 20, escalations: 2, storedConversations: 500 };

const common = {
  apiLatencyMs: 0,
  pollIntervalMs: 1000,
  burst: true,
  storedConversations: 0,
  rateLimitPerHour: 0,
  limit: true,
  concurrency: 32,
  stallMs: 15_000,
  phaseDeadlineMs: 60_000,
};

/** The scenarios of the issue, at a given size. */
export function scenarios(size: BenchSize): ScenarioSpec[] {
  const load = { contacts: size.contacts, rounds: size.rounds, pacedPerSecond: size.pacedPerSecond, escalations: size.escalations };
  return [
    { ...common, ...load, name: 'steady-poll', ingestion: 'poll' },
    { ...common, ...load, name: 'steady-webhook', ingestion: 'webhook', pollIntervalMs: 5000 },
    {
      // 100 ms per call and at most 8 writes in flight (the client's write class) cap both bridge and limit near
      // 70 replies/s. A tenth of the contacts keeps the run short; at that size the burst lasts ~1.5 s, so the
      // bridge's fixed start (first poll, owner check and claim) weighs on the ratio (see bench/README.md).
      ...common,
      ...load,
      name: 'api-latency-100ms',
      ingestion: 'poll',
      apiLatencyMs: 100,
      contacts: Math.max(2, Math.ceil(size.contacts / 10)),
      pacedPerSecond: Math.max(2, Math.ceil(size.pacedPerSecond / 10)),
      escalations: Math.max(1, Math.ceil(size.escalations / 4)),
      stallMs: 30_000,
    },
    {
      ...common,
      name: 'stored-50k',
      ingestion: 'poll',
      storedConversations: size.storedConversations,
      contacts: Math.max(2, Math.ceil(size.contacts / 4)),
      rounds: 2,
      pacedPerSecond: Math.ceil(size.pacedPerSecond / 2),
      escalations: 0,
      limit: false,
    },
    {
      // 18,000 calls/hour = 5 per second, burst 20: the bridge must queue its calls and still answer everyone.
      ...common,
      name: 'rate-budget',
      ingestion: 'poll',
      pollIntervalMs: 2000,
      rateLimitPerHour: 18_000,
      contacts: Math.max(2, Math.ceil(size.contacts / 20)),
      rounds: 2,
      pacedPerSecond: null,
      escalations: 0,
      limit: false,
      stallMs: 30_000,
    },
  ];
}
