import { describe, expect, it } from 'vitest';
import {
  AuthError,
  backoffDelayMs,
  ConnectionError,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  InvalidParameterError,
  RateLimitError,
  ServerError,
  type EngageError,
} from '../../../src/engage/index.js';

const ctx = { method: 'GET', path: '/p' };
const decide = (error: EngageError, attempt = 1, idempotent = true, random = 0.5) =>
  decideRetry({ error, attempt, idempotent, policy: DEFAULT_RETRY_POLICY, random: () => random });

describe('decideRetry', () => {
  it('retries a server fault of an idempotent call with growing backoff', () => {
    const delays = [1, 2, 3].map((attempt) => decide(new ServerError(ctx), attempt));
    expect(delays.every((d) => d.retry)).toBe(true);
    const ms = delays.map((d) => (d.retry ? d.delayMs : 0));
    expect(ms[0]).toBeLessThan(ms[1]!);
    expect(ms[1]).toBeLessThan(ms[2]!);
  });

  it('retries timeouts and resets', () => {
    expect(decide(new ConnectionError(ctx, 'timeout')).retry).toBe(true);
    expect(decide(new ConnectionError(ctx, 'reset')).retry).toBe(true);
  });

  it('never retries a call that is not idempotent', () => {
    expect(decide(new ServerError(ctx), 1, false)).toEqual({ retry: false, reason: 'not idempotent: the caller decides' });
    expect(decide(new RateLimitError(ctx, 1000), 1, false).retry).toBe(false);
  });

  it('stops at once on a revoked token and on a refused parameter', () => {
    expect(decide(new AuthError(ctx)).retry).toBe(false);
    expect(decide(new InvalidParameterError(ctx)).retry).toBe(false);
  });

  it('stops when the attempts are used up', () => {
    expect(decide(new ServerError(ctx), DEFAULT_RETRY_POLICY.maxAttempts).retry).toBe(false);
  });

  it('waits the rate-limit time plus a small spread', () => {
    const decision = decide(new RateLimitError(ctx, 30_000), 1, true, 0);
    expect(decision).toEqual({ retry: true, delayMs: 30_000 });
  });

  it('does not sleep through a rate limit that resets too late', () => {
    expect(decide(new RateLimitError(ctx, DEFAULT_RETRY_POLICY.maxRateLimitWaitMs + 1)).retry).toBe(false);
  });

  it('keeps backoff within half and all of the capped step', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(1, policy, () => 0)).toBe(50);
    expect(backoffDelayMs(1, policy, () => 0.999)).toBe(100);
    expect(backoffDelayMs(10, policy, () => 0)).toBe(500);
  });
});
