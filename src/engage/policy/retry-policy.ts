import type { EngageError } from '../errors/engage-error.js';
import { ConnectionError, MalformedResponseError, RateLimitError, ServerError } from '../errors/error-kinds.js';

/** Retry behaviour as data; `decideRetry` is the only mechanism that reads it. */
export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A rate-limit wait longer than this is not slept through: the error goes to the caller. */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRateLimitWaitMs: 120_000,
};

export interface RetryInput {
  error: EngageError;
  /** Attempts made so far (1 after the first failure). */
  attempt: number;
  idempotent: boolean;
  policy: Readonly<RetryPolicy>;
  /** A number in [0, 1). */
  random: () => number;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason: string };

/**
 * Pure: whether a failed call is tried again, and after how long. Only idempotent calls retry, and
 * only on rate limits, server faults, connection failures and bodies cut short; a revoked token stops at once.
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const { error, attempt, policy } = input;
  if (!input.idempotent) return { retry: false, reason: 'not idempotent: the caller decides' };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts exhausted' };
  if (error instanceof RateLimitError) {
    if (error.retryAfterMs > policy.maxRateLimitWaitMs) {
      return { retry: false, reason: 'rate limit resets too late to wait for it' };
    }
    // A little spread so that callers blocked together do not all return in the same instant.
    return { retry: true, delayMs: Math.round(error.retryAfterMs + input.random() * Math.min(1000, policy.baseDelayMs)) };
  }
  // A body cut short (not JSON at all) is a transport accident like a reset: a read may simply be asked again.
  const unreadable = error instanceof MalformedResponseError && error.unreadable;
  if (error instanceof ServerError || error instanceof ConnectionError || unreadable) {
    return { retry: true, delayMs: backoffDelayMs(attempt, policy, input.random) };
  }
  return { retry: false, reason: `${error.code} is not transient` };
}

/** "Equal jitter" exponential backoff: half the step is fixed so the delay always grows, half random. */
export function backoffDelayMs(attempt: number, policy: Readonly<RetryPolicy>, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
