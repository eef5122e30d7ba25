import { endpointName } from './endpoint-name.js';
import type { SentMessage } from './load-driver.js';
import type { RequestEntry } from './sim-client.js';

/** When a kind of call first started and last ended, in ms from the phase start. */
export interface CallSpan {
  readonly count: number;
  readonly first_start_ms: number;
  readonly last_end_ms: number;
}

/**
 * Where a burst's time went, from the simulator's own log (`at_ms`: when each answer went out; minus
 * `duration_ms`, which includes injected latency, for when the call came in). With short bursts the fixed
 * start (the wait for the first poll, the owner check, the claim) is a large share of the throughput figure;
 * this shows how large. Both clocks are this machine's, read by two processes: good to a millisecond or so.
 */
export interface BurstTimeline {
  /** The last customer message confirmed by the simulator. */
  readonly last_sent_ms: number;
  /** The last bot reply seen by the bench. */
  readonly last_reply_ms: number | null;
  /** Per endpoint, e.g. `GET inbox/mentions`, `POST publisher/add`. */
  readonly calls: Record<string, CallSpan>;
}

export function burstTimeline(
  startedAt: number,
  sent: readonly SentMessage[],
  lastReplyAt: number | undefined,
  requests: readonly RequestEntry[],
): BurstTimeline {
  const spans = new Map<string, { count: number; first: number; last: number }>();
  for (const r of requests) {
    if (r.path.startsWith('/_sim') || typeof r.at_ms !== 'number') continue;
    const name = endpointName(r.method, r.path);
    const start = r.at_ms - r.duration_ms;
    const span = spans.get(name);
    if (!span) spans.set(name, { count: 1, first: start, last: r.at_ms });
    else {
      span.count += 1;
      span.first = Math.min(span.first, start);
      span.last = Math.max(span.last, r.at_ms);
    }
  }
  const rel = (ms: number) => Math.round(ms - startedAt);
  const calls: Record<string, CallSpan> = {};
  for (const [name, s] of [...spans].sort(([a], [b]) => a.localeCompare(b))) {
    calls[name] = { count: s.count, first_start_ms: rel(s.first), last_end_ms: rel(s.last) };
  }
  const lastSent = sent.reduce((max, m) => Math.max(max, m.sentAt), startedAt);
  return { last_sent_ms: rel(lastSent), last_reply_ms: lastReplyAt === undefined ? null : rel(lastReplyAt), calls };
}
