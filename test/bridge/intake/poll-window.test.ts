import { describe, it, expect } from 'vitest';
import { nextWindow, advanceCursor, advanceDeepScan, parseCursor, withDeepScan } from '../../../src/bridge/intake/poll-window.js';

const o = { shallowOverlapSeconds: 5, lookbackSeconds: 120, deepScanEveryMs: 60_000, backfillSeconds: 0 };
const NEG = Number.NEGATIVE_INFINITY;

describe('poll window', () => {
  it("makes a topic's first read a deep baseline read whose mentions are all history", () => {
    expect(nextWindow(undefined, 10_000_000, o)).toEqual({
      fromSeconds: 10_000 - 120,
      deep: true,
      baseline: true,
      answerFromSeconds: Number.POSITIVE_INFINITY,
    });
  });

  it('reaches the backfill on a baseline read and answers only what is that recent', () => {
    const w = nextWindow(undefined, 10_000_000, { ...o, backfillSeconds: 600 });
    expect(w).toMatchObject({ fromSeconds: 10_000 - 600 - 120, baseline: true, answerFromSeconds: 10_000 - 600 });
  });

  it('overlaps every poll a little before the newest mention seen', () => {
    const cursor = { newestAddedAt: 5_000, lastDeepScanAt: 10_000 };
    expect(nextWindow(cursor, 20_000, o)).toEqual({ fromSeconds: 4_995, deep: false, baseline: false, answerFromSeconds: NEG });
  });

  it('reads from the cursor even when a deep re-scan is due: the re-scan is a read of its own', () => {
    const cursor = { newestAddedAt: 5_000, lastDeepScanAt: 10_000 };
    expect(nextWindow(cursor, 70_000, o)).toEqual({ fromSeconds: 4_995, deep: false, baseline: false, answerFromSeconds: NEG });
  });

  it('begins a deep re-scan of the whole look-back window, up to the newest mention seen, once one is due', () => {
    const cursor = { newestAddedAt: 5_000, lastDeepScanAt: 10_000 };
    expect(withDeepScan(cursor, 69_999, o)).toBeUndefined();
    expect(withDeepScan(cursor, 70_000, o)).toEqual({
      newestAddedAt: 5_000,
      lastDeepScanAt: 70_000,
      deepScan: { fromSeconds: 4_880, toSeconds: 5_000 },
    });
    // Nothing to re-scan when the overlap of every poll reaches as far.
    expect(withDeepScan(cursor, 70_000, { ...o, lookbackSeconds: 5 })).toBeUndefined();
  });

  it('begins a re-scan where the last one ended when that lies further back than the look-back window', () => {
    // The last re-scan ended at 5,000; the cursor has since moved 300 s on (re-scans failing, or slow).
    const cursor = { newestAddedAt: 5_300, lastDeepScanAt: 10_000, scannedThrough: 5_000 };
    expect(withDeepScan(cursor, 70_000, o)?.deepScan).toEqual({ fromSeconds: 5_000, toSeconds: 5_300 });
    // When it ended recently, the look-back window reaches further.
    expect(withDeepScan({ ...cursor, scannedThrough: 5_250 }, 70_000, o)?.deepScan).toEqual({ fromSeconds: 5_180, toSeconds: 5_300 });
    expect(parseCursor(cursor)).toEqual(cursor);
  });

  it('goes on with the re-scan under way, moving its start only forward and within its window, and ends it', () => {
    const under = { newestAddedAt: 6_000, lastDeepScanAt: 1, deepScan: { fromSeconds: 4_880, toSeconds: 5_000 } };
    expect(withDeepScan(under, 999_999, o)).toBe(under);
    expect(advanceDeepScan(under, 4_950, false).deepScan).toEqual({ fromSeconds: 4_950, toSeconds: 5_000 });
    expect(advanceDeepScan(under, 4_000, false).deepScan).toEqual({ fromSeconds: 4_880, toSeconds: 5_000 });
    expect(advanceDeepScan(under, 7_000, false).deepScan).toEqual({ fromSeconds: 5_000, toSeconds: 5_000 });
    expect(advanceDeepScan(under, undefined, true)).toEqual({ newestAddedAt: 6_000, lastDeepScanAt: 1, scannedThrough: 5_000 });
    // The read from the cursor keeps the re-scan as it is.
    const shallow = { fromSeconds: 0, deep: false, baseline: false, answerFromSeconds: NEG };
    expect(advanceCursor(under, 6_100, 5, shallow)).toEqual({ ...under, newestAddedAt: 6_100 });
  });

  it("reads after a baseline from the service's own newest timestamp, whatever our clock says", () => {
    // Our clock is far ahead of the service's: the window still starts at the service's newest mention.
    const cursor = { newestAddedAt: 1_050, lastDeepScanAt: 9_999_000 };
    expect(nextWindow(cursor, 10_000_000, o).fromSeconds).toBe(1_045);
  });

  it('only moves the cursor forward', () => {
    const shallow = { fromSeconds: 0, deep: false, baseline: false, answerFromSeconds: NEG };
    const c = advanceCursor({ newestAddedAt: 5_000, lastDeepScanAt: 1 }, 4_000, 9, shallow);
    expect(c).toEqual({ newestAddedAt: 5_000, lastDeepScanAt: 1 });
    expect(advanceCursor(c, 6_000, 99, { ...shallow, deep: true })).toEqual({ newestAddedAt: 6_000, lastDeepScanAt: 99 });
  });

  it('treats a stored cursor of another shape as absent', () => {
    expect(parseCursor({ nope: 1 })).toBeUndefined();
    expect(parseCursor({ newestAddedAt: 1, lastDeepScanAt: 2 })).toEqual({ newestAddedAt: 1, lastDeepScanAt: 2 });
    // A re-scan of another shape is no re-scan; the cursor itself stands.
    expect(parseCursor({ newestAddedAt: 1, lastDeepScanAt: 2, deepScan: { fromSeconds: 'x' } })).toEqual({
      newestAddedAt: 1,
      lastDeepScanAt: 2,
    });
    const deepScan = { fromSeconds: 3, toSeconds: 4 };
    expect(parseCursor({ newestAddedAt: 1, lastDeepScanAt: 2, deepScan })).toEqual({ newestAddedAt: 1, lastDeepScanAt: 2, deepScan });
  });
});

describe('poll pacing', async () => {
  const { effectivePollIntervalMs } = await import('../../../src/bridge/intake/poller.js');
  it('keeps the configured interval when no budget is set', () => {
    expect(effectivePollIntervalMs(2000, 0, 3)).toBe(2000);
  });
  it('spends at most half of an hourly budget on polls', () => {
    // 1,000 calls an hour, one topic: 500 polls an hour at most, one every 7.2 s
    expect(effectivePollIntervalMs(2000, 1000, 1)).toBe(7200);
    expect(effectivePollIntervalMs(2000, 1000, 2)).toBe(14400);
    expect(effectivePollIntervalMs(2000, 1_000_000, 1)).toBe(2000);
  });
});
