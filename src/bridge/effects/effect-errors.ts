import {
  AuthError,
  ConnectionError,
  EngageError,
  MalformedResponseError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
} from '../../engage/index.js';

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

const BASE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** Tries that may follow a passing fault at the first step (six faults in a row at 13 % each: one reply in 200,000). */
const PASSING_FAST_TRIES = 6;
/** Tries of one effect before it is parked as dead, whatever the reason it could not go through (about 6 minutes). */
export const MAX_EFFECT_ATTEMPTS = 12;
/** Tries for an error the bridge cannot classify (a bug, the disk): fewer, it will hardly mend by itself. */
const MAX_UNKNOWN_ATTEMPTS = 5;
const REVOKED_RECHECK_MS = 30_000;

/** A fault of the service or the way to it (5xx, no answer, a cut or unexpected answer): the call may have worked. */
export function isServiceFault(err: unknown): boolean {
  return (
    err instanceof ServerError ||
    err instanceof ConnectionError ||
    err instanceof MalformedResponseError ||
    err instanceof UnexpectedStatusError
  );
}

/**
 * What to do after an effect failed: the retry policy of the outbox, as one pure function. Every retry is bounded
 * (`attempts` counts the failures so far); a refusal by the service (bad parameter, not found, scope) is
 * permanent at once. `passing`: a fault of the service (5xx, no answer, a cut answer) while the rest of the effect's
 * line went through since it last failed and seldom failed (`effect-lines.ts`): the next try comes after the first
 * step of the backoff, not after a step grown by this effect's bad luck (a reply failing five times in a row among
 * hundreds that went out waited 16 s for its sixth try and its customer 67 s in all). Only for the first
 * PASSING_FAST_TRIES: an effect failing again and again while its line goes through (a fault of its own at the
 * service) then keeps the long schedule, and is parked about 5 minutes after its first try. The bound stays.
 */
export function judgeEffectError(err: unknown, attempts: number, nowMs: number, passing = false): ErrorVerdict {
  const message = (err as Error)?.message ?? String(err);
  const tries = attempts + 1;
  const backoff = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.min(attempts, 6));
  const transient = (retryAt: number, ambiguous: boolean, revoked?: boolean): ErrorVerdict =>
    tries >= MAX_EFFECT_ATTEMPTS
      ? { kind: 'give-up', message: `gave up after ${tries} tries: ${err instanceof EngageError ? err.humanMessage || message : message}` }
      : { kind: 'retry', retryAt, ambiguous, ...(revoked ? { revoked } : {}) };
  if (err instanceof RecheckIncompleteError) return transient(nowMs + backoff, false);
  if (err instanceof RateLimitError) return transient(nowMs + Math.max(err.retryAfterMs, 250), false);
  if (err instanceof AuthError) return transient(nowMs + REVOKED_RECHECK_MS, false, true);
  if (isServiceFault(err)) return transient(nowMs + (passing && attempts < PASSING_FAST_TRIES ? BASE_BACKOFF_MS : backoff), true);
  if (err instanceof EngageError) return { kind: 'give-up', message: err.humanMessage || message };
  if (tries >= MAX_UNKNOWN_ATTEMPTS) return { kind: 'give-up', message: `gave up after ${tries} tries: ${message}` };
  return { kind: 'retry', retryAt: nowMs + backoff, ambiguous: true };
}
