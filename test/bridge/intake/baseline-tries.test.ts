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
    tries.note('2001', 1_000_000_500, 0);
    tries.note('2001', 1_000_300_500, 300_000); // the retry, five minutes later: the first try stays
    expect(tries.plan('2001', window(1_000_300), 120)).toEqual({ fromSeconds: 1_000_000 - 120, historyBefore: 1_000_001 });
  });

  it('forgets the tries once the baseline is read, so a later baseline of the topic starts its own', () => {
    const tries = new BaselineTries();
    tries.note('2001', 1_000_000_500, 0);
    tries.done('2001');
    tries.note('2001', 1_000_600_500, 600_000);
    expect(tries.plan('2001', window(1_000_600), 120)).toEqual({ fromSeconds: 1_000_600 - 120, historyBefore: 1_000_601 });
  });

  it('places a first try made before the service ever answered at the service’s time less the time since, on our clock', () => {
    const tries = new BaselineTries();
    tries.note('2001', undefined, 50_000); // the service had never answered: its time is unknown
    expect(tries.knows('2001')).toBe(false);
    tries.note('2001', undefined, 170_000); // the retry two minutes later: still no answer
    // Five minutes after the first try the service answers (its clock, UNIX ms): the try was five minutes before.
    tries.note('2001', 1_000_300_500, 350_000);
    expect(tries.knows('2001')).toBe(true);
    expect(tries.plan('2001', window(1_000_300), 120)).toEqual({ fromSeconds: 1_000_000 - 120, historyBefore: 1_000_001 });
  });
});
