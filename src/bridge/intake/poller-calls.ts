export type PollCallKind = 'list' | 'recheck';

const BUCKET_MS = 60_000;
const BUCKETS = 60;

/**
 * Inbox reads of the last hour, by kind, in minute buckets on our clock: what `status` shows as polling calls per
 * hour (the Prometheus counter `engage_bridge_poll_calls_total` has the totals).
 */
export class PollCallLog {
  private readonly buckets = new Map<number, Record<PollCallKind, number>>();

  record(kind: PollCallKind, nowMs: number): void {
    const minute = Math.floor(nowMs / BUCKET_MS);
    const bucket = this.buckets.get(minute) ?? { list: 0, recheck: 0 };
    bucket[kind] += 1;
    this.buckets.set(minute, bucket);
    for (const m of this.buckets.keys()) if (m <= minute - BUCKETS || m > minute + 1) this.buckets.delete(m);
  }

  /** Calls in the 60 minutes up to now. */
  lastHour(nowMs: number): Record<PollCallKind, number> {
    const minute = Math.floor(nowMs / BUCKET_MS);
    const out = { list: 0, recheck: 0 };
    for (const [m, b] of this.buckets) {
      if (m <= minute - BUCKETS || m > minute) continue;
      out.list += b.list;
      out.recheck += b.recheck;
    }
    return out;
  }
}

/**
 * Polls never take more than half of a configured hourly budget, so replies always have room. `callsPerPoll`: one
 * since every topic is read in one call (more pages, baseline reads and re-reads come on top, bounded).
 */
export function effectivePollIntervalMs(pollIntervalMs: number, budgetPerHour: number, callsPerPoll = 1): number {
  if (budgetPerHour <= 0) return pollIntervalMs;
  return Math.max(pollIntervalMs, Math.ceil((3_600_000 * Math.max(1, callsPerPoll)) / (budgetPerHour * 0.5)));
}
