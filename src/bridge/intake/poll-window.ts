/**
 * Where each poll of a topic starts reading. Mentions can share a second and can become visible after their
 * `date.added`, so every poll re-reads a short overlap before the newest mention seen, and every few polls a deep
 * re-scan reaches back the whole look-back window. Ids de-duplicate what is read twice.
 *
 * The deep re-scan is a read of its own, beside the read from the cursor and bounded at both ends (`DeepScan`): it
 * never stands between the cursor and what is new. Under heavy traffic its window holds hundreds of pages; it goes on
 * a few pages per poll, its progress kept in the cursor, so neither a restart nor a failed page sends it back. Each
 * re-scan begins where the last one ended at the latest (`scannedThrough`), so when re-scans are slower than the
 * look-back window (failures, heavy traffic) the next one covers the stretch between them instead of leaving it.
 *
 * A topic with no cursor yet gets a *baseline* read: everything it shows is recorded as history (by id), and
 * whatever becomes visible later is new. Nothing is ever decided by comparing the service's `date.added` with
 * our clock: the poller passes the service's time (its answers' `Date`) for a baseline's reach once it knows it,
 * and a baseline tried again reaches back to its first try (`baseline-tries.ts`).
 */
export interface PollCursor {
  /** Newest `date.added` (UNIX seconds, the service's clock) read so far. */
  readonly newestAddedAt: number;
  /** When the last deep re-scan began (epoch ms, our clock: only ever compared with our clock). */
  readonly lastDeepScanAt: number;
  /** A deep re-scan under way: what is left of its window. */
  readonly deepScan?: DeepScan;
  /** Where the last finished deep re-scan ended (UNIX seconds, the service's clock). */
  readonly scannedThrough?: number;
}

/** What a deep re-scan still has to read: `date_from` and `date_to` (UNIX seconds, the service's clock). */
export interface DeepScan {
  readonly fromSeconds: number;
  readonly toSeconds: number;
}

export interface PollWindowOptions {
  /** Overlap of every poll, seconds (ties and short indexing delays). */
  readonly shallowOverlapSeconds: number;
  /** Reach of the deep re-scan, seconds (late indexing). */
  readonly lookbackSeconds: number;
  /** How often the deep re-scan runs, ms. */
  readonly deepScanEveryMs: number;
  /** How far before the look-back window the baseline read reaches (the first start's backfill), seconds. */
  readonly backfillSeconds: number;
}

export interface PollWindow {
  /** `date_from` (UNIX seconds). */
  readonly fromSeconds: number;
  readonly deep: boolean;
  /** The topic's first read: what it shows is history, except the backfill (`answerFromSeconds`). */
  readonly baseline: boolean;
  /** Baseline reads only: mentions added at or after this are answered (`Infinity`: none). */
  readonly answerFromSeconds: number;
}

export function parseCursor(value: unknown): PollCursor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.newestAddedAt !== 'number' || typeof v.lastDeepScanAt !== 'number') return undefined;
  const cursor = {
    newestAddedAt: v.newestAddedAt,
    lastDeepScanAt: v.lastDeepScanAt,
    ...(typeof v.scannedThrough === 'number' ? { scannedThrough: v.scannedThrough } : {}),
  };
  const deep = v.deepScan as Record<string, unknown> | undefined;
  // A re-scan of another shape is no re-scan: the next one falls due as if none had begun.
  if (typeof deep?.fromSeconds !== 'number' || typeof deep.toSeconds !== 'number') return cursor;
  return { ...cursor, deepScan: { fromSeconds: deep.fromSeconds, toSeconds: deep.toSeconds } };
}

/** The next poll's read from its cursor (a topic's first read: its baseline). */
export function nextWindow(cursor: PollCursor | undefined, nowMs: number, o: PollWindowOptions): PollWindow {
  if (cursor === undefined) {
    // The reach is generous (look-back on top of the backfill) so a service clock a little behind ours, or a
    // mention indexed late, is still inside the baseline read or found by id later.
    const nowSeconds = Math.floor(nowMs / 1000);
    return {
      fromSeconds: nowSeconds - o.backfillSeconds - o.lookbackSeconds,
      deep: true,
      baseline: true,
      // The backfill boundary lies minutes in the past, so a few seconds between the clocks do not matter there.
      answerFromSeconds: o.backfillSeconds > 0 ? nowSeconds - o.backfillSeconds : Number.POSITIVE_INFINITY,
    };
  }
  const reach = Math.min(o.shallowOverlapSeconds, o.lookbackSeconds);
  return { fromSeconds: cursor.newestAddedAt - reach, deep: false, baseline: false, answerFromSeconds: Number.NEGATIVE_INFINITY };
}

/**
 * The cursor with the deep re-scan the next read should go on with: the one under way, or a new one when one is due
 * (the whole look-back window up to the newest mention seen, and back to where the last one ended when that is
 * further; `lastDeepScanAt` becomes now). `undefined`: none.
 */
export function withDeepScan(cursor: PollCursor, nowMs: number, o: PollWindowOptions): PollCursor | undefined {
  if (cursor.deepScan) return cursor;
  if (nowMs - cursor.lastDeepScanAt < o.deepScanEveryMs) return undefined;
  if (o.lookbackSeconds <= o.shallowOverlapSeconds) return undefined; // the overlap of every poll covers it
  const fromSeconds = Math.min(
    cursor.newestAddedAt - o.lookbackSeconds,
    // Its last second again (ties), so a mention listed there late is not left between two re-scans.
    cursor.scannedThrough ?? Number.POSITIVE_INFINITY,
  );
  const deepScan = { fromSeconds, toSeconds: cursor.newestAddedAt };
  return { ...cursor, lastDeepScanAt: nowMs, deepScan };
}

/** The cursor after the deep re-scan read up to `newestSeen` (UNIX seconds); `done`: it read its window through. */
export function advanceDeepScan(cursor: PollCursor, newestSeen: number | undefined, done: boolean): PollCursor {
  const { deepScan, ...rest } = cursor;
  if (deepScan === undefined) return rest;
  if (done) return { ...rest, scannedThrough: deepScan.toSeconds };
  // Ties: the second of the newest mention read is read again (ids de-duplicate), so none of its others is skipped.
  const fromSeconds = Math.min(deepScan.toSeconds, Math.max(deepScan.fromSeconds, newestSeen ?? deepScan.fromSeconds));
  return { ...rest, deepScan: { ...deepScan, fromSeconds } };
}

/** The cursor after a poll of `window` that read mentions up to `newestSeen` (UNIX seconds). */
export function advanceCursor(
  cursor: PollCursor | undefined,
  newestSeen: number | undefined,
  nowMs: number,
  window: PollWindow,
): PollCursor {
  const previous = cursor?.newestAddedAt ?? window.fromSeconds;
  return {
    newestAddedAt: Math.max(previous, newestSeen ?? previous),
    lastDeepScanAt: window.deep ? nowMs : (cursor?.lastDeepScanAt ?? nowMs),
    ...(cursor?.deepScan ? { deepScan: cursor.deepScan } : {}),
    ...(cursor?.scannedThrough !== undefined ? { scannedThrough: cursor.scannedThrough } : {}),
  };
}

/** Whether two cursors say the same: saving one over the other would change nothing. */
export function sameCursor(a: PollCursor, b: PollCursor): boolean {
  return (
    a.newestAddedAt === b.newestAddedAt &&
    a.lastDeepScanAt === b.lastDeepScanAt &&
    a.scannedThrough === b.scannedThrough &&
    a.deepScan?.fromSeconds === b.deepScan?.fromSeconds &&
    a.deepScan?.toSeconds === b.deepScan?.toSeconds
  );
}
