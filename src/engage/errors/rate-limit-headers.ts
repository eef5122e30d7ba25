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

/**
 * How long to wait after a rate-limit answer: `Retry-After` wins, then `x-ratelimit-reset`,
 * and when neither is given, 60 s (the reset header is sometimes missing).
 */
export function rateLimitWaitMs(headers: HeaderBag, nowMs: number): number {
  const retryAfter = readRetryAfterMs(headers, nowMs);
  if (retryAfter !== null) return retryAfter;
  const resetAt = readResetAtMs(headers);
  if (resetAt !== null) return Math.max(0, resetAt - nowMs);
  return DEFAULT_RATE_LIMIT_WAIT_MS;
}
