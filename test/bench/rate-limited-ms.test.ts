import { describe, expect, it } from 'vitest';
import { rateLimitedMs } from '../../bench/lib/chaos-campaign.js';

describe('the time rate-limit refusals held the client, in a chaos report', () => {
  it('adds up each refusal’s one-second window, counting overlaps once and other answers not at all', () => {
    const at = (at_ms: number, error: string | undefined = 'rate_limit_reached') => ({ at_ms, ...(error ? { error } : {}) });
    expect(rateLimitedMs([at(0), at(500), at(5_000), at(5_200, ''), at(9_000, 'server_error'), at(12_000, 'not_found')])).toBe(
      1_500 + 1_000,
    );
    expect(rateLimitedMs([])).toBe(0);
  });
});
