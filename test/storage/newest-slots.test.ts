import { describe, expect, it } from 'vitest';
import { newestSlots } from '../../src/storage/newest-slots.js';

// The start-time listing asks for the newest few of tens of thousands: the cut-off by sorted dates must pick exactly
// what a stable sort of all of them, newest first, would have kept.
describe('the newest slots', () => {
  const slots = (dates: number[]): Array<[string, { updatedAt: number }]> => dates.map((updatedAt, i) => [`k${i}`, { updatedAt }]);
  const bySorting = (all: Array<[string, { updatedAt: number }]>, count: number) =>
    [...all].sort(([, a], [, b]) => b.updatedAt - a.updatedAt).slice(0, count);

  it('are those a stable sort of all of them keeps, ties in their listed order', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Few distinct dates, so the cut-off falls inside a run of equal ones.
    const all = slots(Array.from({ length: 5_000 }, () => 1_700_000_000_000 + Math.floor(random() * 40) * 60_000));
    for (const count of [1, 2, 99, 100, 2_000, 4_999, 5_000, 6_000]) expect(newestSlots(all, count)).toEqual(bySorting(all, count));
  });

  it('are none when none are asked for', () => {
    expect(newestSlots(slots([1, 2, 3]), 0)).toEqual([]);
  });
});
