import { describe, expect, it } from 'vitest';
import { RateLimitRegistry } from '../../../src/engage/index.js';
import { UserAllocation } from '../../../src/engage/policy/user-allocation.js';
import { ConcurrencyGate } from '../../../src/engage/policy/request-classes.js';

describe('UserAllocation', () => {
  it('lets a burst go and then paces at the sustained rate', () => {
    const a = new UserAllocation({ burst: 2, requestsPerSecond: 4 });
    expect(a.tryTake(0)).toBe(0);
    expect(a.tryTake(0)).toBe(0);
    expect(a.tryTake(0)).toBe(250);
    expect(a.tryTake(250)).toBe(0);
  });

  it('blocks every request of the user until the reset when the budget reaches zero', () => {
    const a = new UserAllocation({ burst: 10, requestsPerSecond: 10 });
    a.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100' }, 40_000);
    expect(a.tryTake(40_000)).toBe(60_000);
    expect(a.tryTake(100_000)).toBe(0);
    expect(a.snapshot()).toMatchObject({ remaining: 0, resetAtMs: 100_000 });
  });

  it('waits as long as Retry-After says when the budget is zero and the reset header is missing (#10.2)', () => {
    const a = new UserAllocation({ burst: 10, requestsPerSecond: 10 });
    a.observe({ 'x-ratelimit-remaining': '0', 'retry-after': '1' }, 1000);
    expect(a.tryTake(1000)).toBe(1000);
    expect(a.tryTake(2000)).toBe(0);
  });

  it('lets Retry-After win over the reset header', () => {
    const a = new UserAllocation({ burst: 10, requestsPerSecond: 10 });
    a.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100', 'retry-after': '2' }, 40_000);
    expect(a.tryTake(40_000)).toBe(2000);
  });

  it("measures the reset from the answer's own Date header, not from our clock (#10.1 audit)", () => {
    const a = new UserAllocation({ burst: 10, requestsPerSecond: 10 });
    // The service's clock is 30 s behind ours: its reset is 5 s after its own "now".
    const serviceNow = Date.UTC(2026, 10, 23, 8, 0, 0);
    const ours = serviceNow + 30_000;
    a.observe(
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(serviceNow / 1000 + 5), date: new Date(serviceNow).toUTCString() },
      ours,
    );
    expect(a.tryTake(ours)).toBe(5000);
  });

  it('blocks 60 s when the budget is zero and the reset header is missing', () => {
    const a = new UserAllocation({ burst: 10, requestsPerSecond: 10 });
    a.observe({ 'x-ratelimit-remaining': '0' }, 1000);
    expect(a.tryTake(1000)).toBe(60_000);
  });
});

describe('RateLimitRegistry', () => {
  it('gives every token of one user the same allocation and other users their own', () => {
    const registry = new RateLimitRegistry();
    expect(registry.allocationFor('user-1')).toBe(registry.allocationFor('user-1'));
    expect(registry.allocationFor('user-1')).not.toBe(registry.allocationFor('user-2'));
  });
});

describe('ConcurrencyGate', () => {
  it('admits up to its limit and hands a released slot to the next waiter', async () => {
    const gate = new ConcurrencyGate(1);
    const release = await gate.acquire();
    let second = false;
    const waiting = gate.acquire().then((r) => {
      second = true;
      return r;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    expect(gate.queued).toBe(1);
    release();
    (await waiting)();
    expect(second).toBe(true);
    expect(gate.inFlight).toBe(0);
  });
});
