/** Header values as undici hands them over. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** `x-ratelimit-remaining` as a number, or null when absent or unreadable. */
export function readRemaining(headers: HeaderBag): number | null {
  const raw = header(headers, 'x-ratelimit-remaining');
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** `x-ratelimit-reset` (UNIX seconds) as epoch milliseconds, or null. */
export function readResetAtMs(headers: HeaderBag): number | null {
  const raw = header(headers, 'x-ratelimit-reset');
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value * 1000 : null;
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null. */
export function readRetryAfterMs(headers: HeaderBag, nowMs: number): number | null {
  const raw = header(headers, 'retry-after');
  if (raw === undefined || raw.trim() === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The hourly window is the longest the service asks anyone to wait; a reset further away is a clock fault. */
export const MAX_RATE_LIMIT_WAIT_MS = 3_600_000;

/**
 * How long to wait after a rate-limit answer: `Retry-After` wins, then `x-ratelimit-reset`,
 * and when neither is given, 60 s (the reset header is sometimes missing). The reset is a moment on the
 * service's clock, so it is measured from the answer's own `Date` header when there is one, never from
 * ours (the two clocks may disagree by seconds or more); the wait is capped at the hourly window.
 */
export function rateLimitWaitMs(headers: HeaderBag, nowMs: number): number {
  const retryAfter = readRetryAfterMs(headers, nowMs);
  if (retryAfter !== null) return Math.min(retryAfter, MAX_RATE_LIMIT_WAIT_MS);
  const resetAt = readResetAtMs(headers);
  if (resetAt !== null) {
    const answeredAt = Date.parse(header(headers, 'date') ?? '');
    const from = Number.isNaN(answeredAt) ? nowMs : answeredAt;
    return Math.min(Math.max(0, resetAt - from), MAX_RATE_LIMIT_WAIT_MS);
  }
  return DEFAULT_RATE_LIMIT_WAIT_MS;
}
