import type { Effect } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import { tokenRefused } from '../ownership/token-health.js';
import { performEffect } from './perform-effect.js';
import { isEndRecorded } from './performer.js';
import { isServiceFault, judgeEffectError, RecheckIncompleteError } from './effect-errors.js';
import { parkDead } from './effect-dead.js';
import { isSuspect, lookAtContact, outcomeUnknown, settled } from './effect-doubt.js';
import type { EffectPayload } from './effect-payload.js';
import { effectLine } from './effect-lines.js';

/**
 * What the effect runner uses, named: the performers' own dependencies, the store, the doubts about effects that
 * may have been in flight (`clean`), the token's health, and a way out: waking a contact later (the dispatcher's).
 */
export type EffectRunnerDeps = Pick<
  BridgeContext,
  'store' | 'now' | 'log' | 'metrics' | 'notifier' | 'health' | 'clean' | 'effectLines' | 'performerDeps' | 'wake'
>;

/** Who hears that a handover failed for good: the brain tells the customer and keeps the conversation. */
export interface EscalationFailures {
  escalationFailed(key: string, why: string): Promise<void>;
  /** A reply was given up while nobody could tell whether it went out: people take the contact, with a note. */
  replyInDoubt?(key: string, why: string): Promise<void>;
}

/**
 * Performs a contact's pending effects in order. An effect that must wait (rate limit, fault) blocks the ones
 * after it, so the customer never sees messages out of order; the contact is woken when it may go on.
 * Returns false while blocked.
 */
export async function runPendingEffects(
  ctx: EffectRunnerDeps,
  key: string,
  escalations: EscalationFailures,
  /** The caller flushed the store since these effects were recorded (the worker, right after its round's decisions). */
  onDisk = false,
): Promise<boolean> {
  // Performing an effect may restore others (a decision's follow-ups, a failure's new decision): go round until none
  // is left. A round that could have added none (no legacy decision performed, no failure handled) ends it without
  // reading again: the caller holds the contact's lock, so nothing else adds effects for it meanwhile (issue 28).
  for (let round = 0; round < 100; round++) {
    const pending = (await ctx.store.pendingEffects(key)).filter((e) => !deferred(ctx, key, e));
    if (pending.length === 0) return true;
    // An effect is performed only once it is on disk. One recorded while the store could not write (disk full) is
    // in memory only: performed now, a crash would lose its record and the decision would be taken, and sent, again.
    // Throws while the store still cannot write; the dispatcher tries the contact again later.
    if (round === 0 && !onDisk) await ctx.store.flush();
    lookAtContact(ctx, key, pending, ctx.now());
    const outcome = await runRound(ctx, key, pending, escalations);
    if (outcome === 'blocked') return false;
    if (outcome === 'done') return true;
  }
  return true;
}

/** A performer's answer when it made no call (people hold the contact, the window closed): not a line's success. */
function isSkipped(result: unknown): boolean {
  return typeof result === 'object' && result !== null && 'skipped' in result;
}

/** An effect asked for later (a survey a while after the people are done) waits without holding up the others. */
function deferred(ctx: EffectRunnerDeps, key: string, effect: Effect): boolean {
  const notBefore = (effect.payload as { notBefore?: unknown } | null)?.notBefore;
  if (typeof notBefore !== 'number' || notBefore <= ctx.now()) return false;
  ctx.wake(key, notBefore);
  return true;
}

/**
 * `blocked`: an effect must wait (the contact is woken when it may go on); `done`: every effect performed and none
 * could have been added; `again`: performed, but an effect may have been added (read the contact's effects again).
 */
async function runRound(
  ctx: EffectRunnerDeps,
  key: string,
  pending: readonly Effect[],
  escalations: EscalationFailures,
): Promise<'blocked' | 'done' | 'again'> {
  // A legacy decision effect enqueues its follow-ups (`perform-decision.ts`); a failure may decide anew.
  let mayHaveAdded = false;
  for (const effect of pending) {
    const now = ctx.now();
    if (effect.retryAt !== undefined && effect.retryAt > now) {
      ctx.wake(key, effect.retryAt);
      return 'blocked';
    }
    if (ctx.health.revoked && effect.kind !== 'decision') {
      ctx.wake(key, now + 30_000);
      return 'blocked';
    }
    if (effect.kind === 'decision') mayHaveAdded = true;
    // Only an effect that may have been in flight at a crash, or whose last attempt had no clear answer, is checked.
    const suspect = isSuspect(ctx, effect);
    try {
      const result = await performEffect(ctx.performerDeps, effect, suspect);
      ctx.clean.delete(effect.key);
      settled(ctx, effect.key);
      ctx.health.lastApiOkAt = ctx.now();
      if (!isSkipped(result)) ctx.effectLines.record(effectLine(effect), ctx.now(), true);
      // A performer that recorded its own end (a sent reply, on disk the moment the service answered) is not
      // recorded again: a second record and a second sync per reply would only lengthen each contact's chain. One
      // that says so by its result (`endRecordedBy`) is not even read back.
      if (!isEndRecorded(result) && (await ctx.store.getEffect(effect.key))?.status !== 'done') {
        await ctx.store.completeEffect(effect.key, result);
        // A reply's end is on disk before the next effect starts: a restart then knows what may have been in flight.
        if (effect.kind === 'reply') await ctx.store.flush();
      }
    } catch (err) {
      mayHaveAdded = true;
      if (!(await onFailure(ctx, effect, err, escalations))) return 'blocked';
    }
  }
  return mayHaveAdded ? 'again' : 'done';
}

async function onFailure(ctx: EffectRunnerDeps, effect: Effect, err: unknown, escalations: EscalationFailures): Promise<boolean> {
  const line = effectLine(effect);
  // Its line went through since this one last failed (`updatedAt`), and seldom failed: a passing fault.
  const passing = effect.attempts > 0 && ctx.effectLines.passingSince(line, effect.updatedAt);
  if (isServiceFault(err)) ctx.effectLines.record(line, ctx.now(), false);
  const verdict = judgeEffectError(err, effect.attempts, ctx.now(), passing);
  const message = (err as Error)?.message ?? String(err);
  ctx.health.lastError = { atMs: ctx.now(), message };
  if (verdict.kind === 'retry') {
    // A call with no clear answer may have taken effect: check before the next try.
    if (verdict.ambiguous) ctx.clean.delete(effect.key);
    if (verdict.revoked) tokenRefused(ctx);
    ctx.log.warn({ contact: effect.contactKey, effect: effect.key, retryAt: verdict.retryAt, err: message }, 'effect delayed');
    await ctx.store.failEffect(effect.key, verdict.ambiguous ? outcomeUnknown(message) : message, verdict.retryAt);
    ctx.wake(effect.contactKey, verdict.retryAt);
    return false;
  }
  settled(ctx, effect.key);
  await parkDead(ctx, effect, verdict.message);
  if ((effect.payload as EffectPayload).kind === 'escalate') await escalations.escalationFailed(effect.contactKey, verdict.message);
  // In doubt after a crash, a note to people rather than a second reply (issue 26).
  if (effect.kind === 'reply' && err instanceof RecheckIncompleteError)
    await escalations.replyInDoubt?.(effect.contactKey, verdict.message);
  return true;
}
