import { describe, expect, it } from 'vitest';
import { BoundedLog } from '../../src/simulator/bounded-log.js';

describe('bounded log', () => {
  it('keeps only the newest entries while seq keeps rising', () => {
    const log = new BoundedLog<{ seq: number; n: number }>(100);
    for (let n = 0; n < 1000; n++) log.append({ n });
    expect(log.size).toBeLessThanOrEqual(100);
    const all = log.after(0);
    expect(all.length).toBeLessThanOrEqual(100 + 100 / 16);
    expect(all.at(-1)).toEqual({ n: 999, seq: 1000 });
    expect(log.after(995).map((e) => e.seq)).toEqual([996, 997, 998, 999, 1000]);
    expect(log.after(990, 2).map((e) => e.seq)).toEqual([991, 992]);
    log.clear();
    expect(log.after(0)).toEqual([]);
    expect(log.append({ n: 0 }).seq).toBe(1001);
  });
});
