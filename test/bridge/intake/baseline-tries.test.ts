import { describe, expect, it } from 'vitest';
import { BaselineTries } from '../../../src/bridge/intake/baseline-tries.js';
import type { PollWindow } from '../../../src/bridge/intake/poll-window.js';

const window = (nowSeconds: number): PollWindow => ({
  fromSeconds: nowSeconds - 120,
  deep: true,
  baseline: true,
  answerFromSeconds: Number.POSITIVE_INFINITY,
});

describe('a topic’s baseline tries', () => {
  it('ends history at the first try’s second when the baseline is tried again', () => {
    const tries = new BaselineTries();
    tries.note('2001', 1_000_000_500);
    tries.note('2001', 1_000_300_500); // the retry, five minutes later: the first try stays
    expect(tries.plan('2001', window(1_000_300), 120)).toEqual({ fromSeconds: 1_000_000 - 120, historyBefore: 1_000_001 });
  });

  it('forgets the tries once the baseline is read, so a later baseline of the topic starts its own', () => {
    const tries = new BaselineTries();
    tries.note('2001', 1_000_000_500);
    tries.done('2001');
    tries.note('2001', 1_000_600_500);
    expect(tries.plan('2001', window(1_000_600), 120)).toEqual({ fromSeconds: 1_000_600 - 120, historyBefore: 1_000_601 });
  });
});
