/**
 * Where each poll of a topic starts reading. Mentions can share a second and can become visible after their
 * `date.added`, so every poll re-reads a short overlap before the newest mention seen, and every few polls a deep
 * re-scan reaches back the whole look-back window. Ids de-duplicate what is read twice.
 */
export interface PollCursor {
  /** Newest `date.added` (UNIX seconds) read so far. */
  readonly newestAddedAt: number;
  /** When the last deep re-scan ran (epoch ms). */
  readonly lastDeepScanAt: number;
}

export interface PollWindowOptions {
  /** Overlap of every poll, seconds (ties and short indexing delays). */
  readonly shallowOverlapSeconds: number;
  /** Reach of the deep re-scan, seconds (late indexing). */
  readonly lookbackSeconds: number;
  /** How often the deep re-scan runs, ms. */
  readonly deepScanEveryMs: number;
  /** Nothing older than this (UNIX seconds) is ever answered: the first start's baseline. */
  readonly baselineAt: number;
}

export function parseCursor(value: unknown): PollCursor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.newestAddedAt !== 'number' || typeof v.lastDeepScanAt !== 'number') return undefined;
  return { newestAddedAt: v.newestAddedAt, lastDeepScanAt: v.lastDeepScanAt };
}

/** The `date_from` (UNIX seconds) of the next poll and whether it is a deep one. */
export function nextWindow(cursor: PollCursor | undefined, nowMs: number, o: PollWindowOptions): { fromSeconds: number; deep: boolean } {
  const newest = cursor?.newestAddedAt ?? o.baselineAt;
  const deep = cursor === undefined || nowMs - cursor.lastDeepScanAt >= o.deepScanEveryMs;
  const reach = deep ? o.lookbackSeconds : Math.min(o.shallowOverlapSeconds, o.lookbackSeconds);
  return { fromSeconds: Math.max(o.baselineAt, newest - reach), deep };
}

/** The cursor after a poll that read mentions up to `newestSeen` (UNIX seconds). */
export function advanceCursor(
  cursor: PollCursor | undefined,
  newestSeen: number | undefined,
  nowMs: number,
  deep: boolean,
  baselineAt: number,
): PollCursor {
  const previous = cursor?.newestAddedAt ?? baselineAt;
  return {
    newestAddedAt: Math.max(previous, newestSeen ?? previous),
    lastDeepScanAt: deep ? nowMs : (cursor?.lastDeepScanAt ?? nowMs),
  };
}
