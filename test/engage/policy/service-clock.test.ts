import { describe, it, expect } from 'vitest';
import { ServiceClock } from '../../../src/engage/policy/service-clock.js';

describe('the service clock', () => {
  it('knows nothing before an answer with a Date header, and ignores an unreadable one', () => {
    const now = 1_000_000;
    const c = new ServiceClock(() => now);
    expect(c.nowMs()).toBeUndefined();
    c.observe({ date: 'not a date' }, now);
    expect(c.nowMs()).toBeUndefined();
  });

  it("runs on from the latest answer's Date, whatever our own clock says", () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const c = new ServiceClock(() => now);
    // The service is two hours ahead of us.
    c.observe({ date: new Date(now + 2 * 3_600_000).toUTCString() }, now);
    now += 10_000;
    expect(c.nowMs()).toBe(now + 2 * 3_600_000 + 500);
    // A later answer corrects the estimate.
    c.observe({ Date: new Date(now - 60_000).toUTCString() }, now);
    expect(c.nowMs()).toBe(now - 60_000 + 500);
  });
});
