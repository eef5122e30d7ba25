import { describe, expect, it } from 'vitest';
import { FailedAttempts } from '../../src/http/webhook-attempts.js';

describe('failed webhook attempts', () => {
  it('blocks an address after the limit within the window, and frees it once the window has passed', () => {
    let now = 0;
    const a = new FailedAttempts(3, 1000, () => now);
    a.fail('x');
    a.fail('x');
    expect(a.blockedForMs('x')).toBe(0);
    a.fail('x');
    expect(a.blockedForMs('x')).toBe(1000);
    expect(a.blockedForMs('y')).toBe(0);
    now = 1000;
    expect(a.blockedForMs('x')).toBe(0);
  });
});
