import { describe, expect, it } from 'vitest';
import { RestartGap } from '../../../src/bridge/intake/restart-gap.js';

const T = '2001';

function gap(maxMs = 60_000) {
  let now = 1_000;
  let serviceNow: number | undefined;
  const woken: Array<[string, number | undefined]> = [];
  const expired: unknown[] = [];
  const closed: unknown[] = [];
  const g = new RestartGap({
    now: () => now,
    serviceNowMs: () => serviceNow,
    wake: (k, at) => woken.push([k, at]),
    onExpired: (d) => expired.push(d),
    onClosed: (d) => closed.push(d),
    maxMs,
  });
  const at = (topics: Record<string, number | undefined>) => new Map(Object.entries(topics));
  return {
    g,
    at,
    woken,
    now: () => woken.filter(([, t]) => t === undefined).map(([k]) => k),
    expired,
    closed,
    advance: (ms: number) => (now += ms),
    setServiceNow: (s: number) => (serviceNow = s * 1000),
  };
}

describe('the gap a restart leaves', () => {
  it('holds nothing at a first start', () => {
    const { g } = gap();
    expect(g.mayDecide('a', T, 500)).toBe(true);
    g.read([T], 100);
    expect(g.mayDecide('a', T, 500)).toBe(true);
  });

  it('decides at once what the poll had read before the restart, and holds what is newer until the poll reads it', () => {
    const { g, at, now, closed, setServiceNow } = gap();
    setServiceNow(130);
    g.opened(at({ [T]: 90 }));
    expect(g.mayDecide('a', T, 89)).toBe(true);
    // The second of the position may hold more than the poll had read (the next page, a mention listed later).
    expect(g.mayDecide('a', T, 90)).toBe(false);
    expect(g.mayDecide('a', T, 95)).toBe(false); // pushed (before the crash, or since): not listed by the poll yet
    expect(g.mayDecide('b', T, 128)).toBe(false);
    g.read([T], 96);
    expect(now()).toEqual(['a', 'b']);
    expect(g.isOpen).toBe(true);
    expect(g.mayDecide('a', T, 95)).toBe(true);
    expect(g.mayDecide('a', T, 96)).toBe(false); // a page ended in that second: the next may hold more of it
    g.read([T], 96, true); // the read went through the list: all that is listed of that second is read
    expect(g.mayDecide('a', T, 96)).toBe(true);
    expect(g.mayDecide('b', T, 128)).toBe(false);
    g.read([T], 130); // the restart's own second may still be listed: not closed yet
    expect(g.isOpen).toBe(true);
    g.read([T], 131); // past the service's time at the restart: the outage is behind
    expect(g.isOpen).toBe(false);
    expect(closed).toEqual([{ until: 130 }]);
    expect(g.mayDecide('c', T, 500)).toBe(true);
  });

  it('keeps a read position per topic and closes only when every watched topic is past the restart', () => {
    const { g, at, setServiceNow } = gap();
    setServiceNow(130);
    g.opened(at({ '2001': 90, '2002': 90, '2003': undefined }));
    g.read(['2001'], 140); // 2001 read alone (the joint read refused): 2002 is still behind
    expect(g.mayDecide('a', '2001', 135)).toBe(true);
    expect(g.mayDecide('b', '2002', 100)).toBe(false);
    expect(g.isOpen).toBe(true);
    g.read(['2002', '2003'], 131);
    expect(g.isOpen).toBe(false);
  });

  it("learns the service's time at its first answer when the restart came before any", () => {
    const { g, at, setServiceNow } = gap();
    g.opened(at({ [T]: undefined }));
    expect(g.mayDecide('a', T, 100)).toBe(false);
    g.read([T], 110);
    expect(g.isOpen).toBe(true);
    setServiceNow(120);
    g.read([T], 115);
    expect(g.isOpen).toBe(true);
    g.read([T], 121);
    expect(g.isOpen).toBe(false);
  });

  it('waits at most its bound from the first message held: each held contact is woken then, even with no poll', () => {
    const { g, at, woken, now, expired, closed, advance, setServiceNow } = gap(30_000);
    setServiceNow(100);
    g.opened(at({ [T]: 50 }));
    expect(g.mayDecide('a', T, 60)).toBe(false);
    advance(10_000);
    expect(g.mayDecide('b', T, 61)).toBe(false);
    // Both are woken at the same deadline: 30 s after the first hold.
    expect(woken).toEqual([
      ['a', 31_001],
      ['b', 31_001],
    ]);
    advance(20_000);
    expect(g.expireIfDue()).toBe(false);
    advance(1);
    expect(g.mayDecide('a', T, 60)).toBe(true);
    expect(expired).toEqual([{ readUpTo: { [T]: 50 }, until: 100 }]);
    expect(now()).toEqual(['a', 'b']);
    expect(g.isOpen).toBe(false);
    expect(closed).toEqual([]);
  });

  it('asks for the deadline wake at every hold: an earlier timer of the contact (a retry) may have replaced it', () => {
    const { g, at, woken, advance, setServiceNow } = gap(30_000);
    setServiceNow(100);
    g.opened(at({ [T]: 50 }));
    expect(g.mayDecide('a', T, 60)).toBe(false);
    advance(5_000); // the contact ran again (a retry): still held
    expect(g.mayDecide('a', T, 60)).toBe(false);
    expect(woken).toEqual([
      ['a', 31_001],
      ['a', 31_001],
    ]);
  });

  it('lets the joint read stand for every topic when the topics could not be listed at the restart', () => {
    const { g, at, setServiceNow } = gap();
    setServiceNow(100);
    g.opened(at({ '*': 50 }));
    expect(g.mayDecide('a', '2001', 49)).toBe(true);
    expect(g.mayDecide('a', '2001', 50)).toBe(false);
    expect(g.mayDecide('a', '2001', 60)).toBe(false);
    g.read(['2001', '2002', '*'], 101);
    expect(g.isOpen).toBe(false);
  });

  it("does not take a joint read of other topics for a topic's own position", () => {
    const { g, at, setServiceNow } = gap();
    setServiceNow(100);
    g.opened(at({ '2001': 50, '2002': 50 }));
    g.read(['2001', '*'], 70, true); // the joint read of 2001 alone (2002 read on its own, and failing)
    expect(g.mayDecide('a', '2001', 70)).toBe(true);
    expect(g.mayDecide('b', '2002', 60)).toBe(false);
  });

  it('runs out after every poll too, when no contact asks again', () => {
    const { g, at, expired, advance, setServiceNow } = gap(30_000);
    setServiceNow(100);
    g.opened(at({ [T]: 50 }));
    expect(g.mayDecide('a', T, 60)).toBe(false);
    advance(30_001);
    expect(g.expireIfDue()).toBe(true);
    expect(expired).toHaveLength(1);
    expect(g.isOpen).toBe(false);
  });
});
