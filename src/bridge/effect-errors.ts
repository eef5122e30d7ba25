import {
  AuthError,
  ConnectionError,
  EngageError,
  MalformedResponseError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
} from '../engage/index.js';

/** A crash re-check of a reply reached its bounds before it could say whether the reply is out: nothing was sent. */
export class RecheckIncompleteError extends Error {
  constructor(why: string) {
    super(`could not tell whether the reply was already published (${why}); not sending it blind`);
    this.name = 'RecheckIncompleteError';
  }
}

export type ErrorVerdict =
  /** Try again at `retryAt`; `ambiguous` when the call may have taken effect. */
  | { readonly kind: 'retry'; readonly retryAt: number; readonly ambiguous: boolean; readonly revoked?: boolean }
  /** It will never work: give up and say why. */
  | { readonly kind: 'give-up'; readonly message: string };

const MAX_BACKOFF_MS = 60_000;
const MAX_UNKNOWN_ATTEMPTS = 5;
const REVOKED_RECHECK_MS = 30_000;

/** What to do after an effect failed: the retry policy of the outbox, as one pure function. */
export function judgeEffectError(err: unknown, attempts: number, nowMs: number): ErrorVerdict {
  const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempts, 6));
  if (err instanceof RecheckIncompleteError) return { kind: 'retry', retryAt: nowMs + backoff, ambiguous: false };
  if (err instanceof RateLimitError) return { kind: 'retry', retryAt: nowMs + Math.max(err.retryAfterMs, 250), ambiguous: false };
  if (err instanceof AuthError) return { kind: 'retry', retryAt: nowMs + REVOKED_RECHECK_MS, ambiguous: false, revoked: true };
  if (
    err instanceof ServerError ||
    err instanceof ConnectionError ||
    err instanceof MalformedResponseError ||
    err instanceof UnexpectedStatusError
  ) {
    return { kind: 'retry', retryAt: nowMs + backoff, ambiguous: true };
  }
  if (err instanceof EngageError) return { kind: 'give-up', message: err.humanMessage || err.message };
  if (attempts + 1 >= MAX_UNKNOWN_ATTEMPTS) return { kind: 'give-up', message: (err as Error)?.message ?? String(err) };
  return { kind: 'retry', retryAt: nowMs + backoff, ambiguous: true };
}
