import { rateLimitWaitMs, readRemaining, readResetAtMs, type HeaderBag } from '../errors/rate-limit-headers.js';

/** Client-side pacing: a token bucket. Quotas are not published, so these are cautious defaults. */
export interface BucketConfig {
  /** Requests that may go at once after a quiet period. */
  burst: number;
  /** Sustained requests per second. */
  requestsPerSecond: number;
}

export const DEFAULT_BUCKET: Readonly<BucketConfig> = { burst: 20, requestsPerSecond: 10 };

export interface BudgetSnapshot {
  /** Last `x-ratelimit-remaining` seen, null until one is seen. */
  remaining: number | null;
  /** Last `x-ratelimit-reset` seen, as epoch milliseconds. */
  resetAtMs: number | null;
  /** No request of this user goes before this time (rate limited, or budget at 0). */
  blockedUntilMs: number | null;
  tokens: number;
}

/**
 * One user's allocation. The service counts per user of the token, so every client using a token of
 * this user takes from the same bucket and honours the same block.
 */
export class UserAllocation {
  private tokens: number;
  private lastRefillMs: number | null = null;
  private blockedUntilMs: number | null = null;
  private remaining: number | null = null;
  private resetAtMs: number | null = null;

  constructor(private readonly config: Readonly<BucketConfig>) {
    this.tokens = config.burst;
  }

  /** Takes a token and returns 0, or returns how many ms to wait before asking again. */
  tryTake(nowMs: number): number {
    if (this.blockedUntilMs !== null) {
      if (nowMs < this.blockedUntilMs) return this.blockedUntilMs - nowMs;
      this.blockedUntilMs = null;
    }
    this.refill(nowMs);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.config.requestsPerSecond));
  }

  /** Reads the budget headers of an answer; a budget at 0 blocks everyone until the reset. */
  observe(headers: HeaderBag, nowMs: number): void {
    const remaining = readRemaining(headers);
    const resetAtMs = readResetAtMs(headers);
    if (remaining !== null) this.remaining = remaining;
    if (resetAtMs !== null) this.resetAtMs = resetAtMs;
    // Out of budget: wait as the answer says (Retry-After, then the reset, then the default), one rule
    // shared with the retry of a 429.
    if (remaining !== null && remaining <= 0) this.block(nowMs + rateLimitWaitMs(headers, nowMs));
  }

  block(untilMs: number): void {
    if (this.blockedUntilMs === null || untilMs > this.blockedUntilMs) this.blockedUntilMs = untilMs;
  }

  snapshot(): BudgetSnapshot {
    return {
      remaining: this.remaining,
      resetAtMs: this.resetAtMs,
      blockedUntilMs: this.blockedUntilMs,
      tokens: Math.floor(this.tokens),
    };
  }

  private refill(nowMs: number): void {
    if (this.lastRefillMs !== null && nowMs > this.lastRefillMs) {
      const added = ((nowMs - this.lastRefillMs) / 1000) * this.config.requestsPerSecond;
      this.tokens = Math.min(this.config.burst, this.tokens + added);
    }
    if (this.lastRefillMs === null || nowMs > this.lastRefillMs) this.lastRefillMs = nowMs;
  }
}
