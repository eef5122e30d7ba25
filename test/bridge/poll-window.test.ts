import { describe, it, expect } from 'vitest';
import { nextWindow, advanceCursor, parseCursor } from '../../src/bridge/poll-window.js';

const o = { shallowOverlapSeconds: 5, lookbackSeconds: 120, deepScanEveryMs: 60_000, baselineAt: 1_000 };

describe('poll window', () => {
  it('starts a first poll at the baseline with a deep scan', () => {
    expect(nextWindow(undefined, 0, o)).toEqual({ fromSeconds: 1_000, deep: true });
  });

  it('overlaps every poll a little before the newest mention seen', () => {
    const cursor = { newestAddedAt: 5_000, lastDeepScanAt: 10_000 };
    expect(nextWindow(cursor, 20_000, o)).toEqual({ fromSeconds: 4_995, deep: false });
  });

  it('reaches back the whole look-back window once a deep scan is due', () => {
    const cursor = { newestAddedAt: 5_000, lastDeepScanAt: 10_000 };
    expect(nextWindow(cursor, 70_000, o)).toEqual({ fromSeconds: 4_880, deep: true });
  });

  it('never reads before the baseline', () => {
    const cursor = { newestAddedAt: 1_050, lastDeepScanAt: 0 };
    expect(nextWindow(cursor, 70_000, o).fromSeconds).toBe(1_000);
  });

  it('only moves the cursor forward', () => {
    const c = advanceCursor({ newestAddedAt: 5_000, lastDeepScanAt: 1 }, 4_000, 9, false, 0);
    expect(c).toEqual({ newestAddedAt: 5_000, lastDeepScanAt: 1 });
    expect(advanceCursor(c, 6_000, 99, true, 0)).toEqual({ newestAddedAt: 6_000, lastDeepScanAt: 99 });
  });

  it('treats a stored cursor of another shape as absent', () => {
    expect(parseCursor({ nope: 1 })).toBeUndefined();
    expect(parseCursor({ newestAddedAt: 1, lastDeepScanAt: 2 })).toEqual({ newestAddedAt: 1, lastDeepScanAt: 2 });
  });
});

describe('poll pacing', async () => {
  const { effectivePollIntervalMs } = await import('../../src/bridge/poller.js');
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
