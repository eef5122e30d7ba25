import { describe, expect, it } from 'vitest';
import { RestartGap } from '../../src/bridge/restart-gap.js';

function gap(maxMs = 60_000) {
  let now = 1_000;
  let serviceNow: number | undefined;
  const woken: string[] = [];
  const expired: unknown[] = [];
  const closed: unknown[] = [];
  const g = new RestartGap({
    now: () => now,
    serviceNowMs: () => serviceNow,
    wake: (k) => woken.push(k),
    onExpired: (d) => expired.push(d),
    onClosed: (d) => closed.push(d),
    maxMs,
  });
  return { g, woken, expired, closed, advance: (ms: number) => (now += ms), setServiceNow: (s: number) => (serviceNow = s * 1000) };
}

describe('the gap a restart leaves', () => {
  it('holds nothing at a first start', () => {
    const { g } = gap();
    expect(g.mayDecide('a', 500)).toBe(true);
    g.read(100);
    expect(g.mayDecide('a', 500)).toBe(true);
  });

  it('decides at once what the poll had read before the restart, and holds what is newer until the poll reads it', () => {
    const { g, woken, closed, setServiceNow } = gap();
    setServiceNow(130);
    g.opened(90);
    expect(g.mayDecide('a', 90)).toBe(true);
    expect(g.mayDecide('a', 95)).toBe(false); // pushed (before the crash, or since): not listed by the poll yet
    expect(g.mayDecide('b', 128)).toBe(false);
    g.read(96);
    expect(woken).toEqual(['a', 'b']);
    expect(g.isOpen).toBe(true);
    expect(g.mayDecide('a', 95)).toBe(true);
    expect(g.mayDecide('b', 128)).toBe(false);
    g.read(130); // as far as the service's time at the restart: the outage is behind
    expect(g.isOpen).toBe(false);
    expect(closed).toEqual([{ until: 130 }]);
    expect(woken).toEqual(['a', 'b', 'b']);
    expect(g.mayDecide('c', 500)).toBe(true);
  });

  it("learns the service's time at its first answer when the restart came before any", () => {
    const { g, setServiceNow } = gap();
    g.opened(undefined);
    expect(g.mayDecide('a', 100)).toBe(false);
    g.read(110);
    expect(g.isOpen).toBe(true);
    setServiceNow(120);
    g.read(115);
    expect(g.isOpen).toBe(true);
    g.read(120);
    expect(g.isOpen).toBe(false);
  });

  it('waits at most its bound from the first mention held, then says so and decides as things come', () => {
    const { g, woken, expired, closed, advance, setServiceNow } = gap(30_000);
    setServiceNow(100);
    g.opened(50);
    expect(g.mayDecide('a', 60)).toBe(false);
    advance(30_000);
    expect(g.mayDecide('a', 60)).toBe(false);
    advance(1);
    expect(g.mayDecide('b', 61)).toBe(true);
    expect(expired).toEqual([{ readUpTo: 50, until: 100 }]);
    expect(woken).toEqual(['a']);
    expect(g.isOpen).toBe(false);
    expect(closed).toEqual([]);
  });
});
