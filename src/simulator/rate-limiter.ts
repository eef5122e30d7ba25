export interface RateLimit {
  limit: number;
  window_seconds: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window restarts. */
  resetAt: number;
}

/** Fixed-window counters per user id: all tokens of one user share one allocation. */
export class RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();
  private readonly perUser = new Map<string, RateLimit>();

  constructor(private defaults: RateLimit) {}

  configure(userId: string | null, limit: RateLimit | null): void {
    if (userId === null) {
      if (limit) this.defaults = limit;
    } else if (limit) this.perUser.set(userId, limit);
    else this.perUser.delete(userId);
    if (userId === null) this.windows.clear();
    else this.windows.delete(userId);
  }

  limitFor(userId: string): RateLimit {
    return this.perUser.get(userId) ?? this.defaults;
  }

  /** Counts one request of `userId` at `nowMs`. */
  take(userId: string, nowMs: number): RateDecision {
    const { limit, window_seconds: windowSeconds } = this.limitFor(userId);
    const windowMs = windowSeconds * 1000;
    let w = this.windows.get(userId);
    if (!w || nowMs - w.startMs >= windowMs) {
      w = { startMs: nowMs, count: 0 };
      this.windows.set(userId, w);
    }
    const allowed = w.count < limit;
    if (allowed) w.count += 1;
    return { allowed, limit, remaining: Math.max(0, limit - w.count), resetAt: Math.ceil((w.startMs + windowMs) / 1000) };
  }

  /** The headers for a caller without a known user (nothing is counted). */
  peek(nowMs: number): RateDecision {
    const { limit, window_seconds: windowSeconds } = this.defaults;
    return { allowed: true, limit, remaining: limit, resetAt: Math.ceil(nowMs / 1000) + windowSeconds };
  }

  /** Forgets every counter and per-user setting. */
  resetAll(defaults: RateLimit): void {
    this.defaults = defaults;
    this.perUser.clear();
    this.windows.clear();
  }
}
