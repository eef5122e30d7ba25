/**
 * Which rate-limit headers the service sends. The description promises `x-ratelimit-*` on every answer and
 * allows `Retry-After` on a refusal; services seen in the field leave some out.
 * - `both`: `x-ratelimit-limit`, `-remaining`, `-reset` on every answer, `Retry-After` on a refusal.
 * - `no_reset`: as `both` without `x-ratelimit-reset`.
 * - `retry_after_only`: no `x-ratelimit-*`; `Retry-After` on a refusal.
 * - `none`: no rate-limit header at all, even on a refusal.
 */
export const RATE_LIMIT_HEADER_VARIANTS = ['both', 'no_reset', 'retry_after_only', 'none'] as const;
export type RateLimitHeaderVariant = (typeof RATE_LIMIT_HEADER_VARIANTS)[number];

export interface RateLimitState {
  limit?: number;
  remaining: number;
  /** UNIX seconds at which the window restarts. */
  resetAt: number;
}

/** The headers of one answer; `retryAfterSeconds` only on a rate-limit refusal. */
export function rateLimitHeaders(variant: RateLimitHeaderVariant, d: RateLimitState, retryAfterSeconds?: number): Record<string, string> {
  const out: Record<string, string> = {};
  if (variant === 'both' || variant === 'no_reset') {
    if (d.limit !== undefined) out['x-ratelimit-limit'] = String(d.limit);
    out['x-ratelimit-remaining'] = String(d.remaining);
    if (variant === 'both') out['x-ratelimit-reset'] = String(d.resetAt);
  }
  if (retryAfterSeconds !== undefined && variant !== 'none') out['retry-after'] = String(retryAfterSeconds);
  return out;
}
