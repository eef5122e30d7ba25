import type { HotState } from '../hot-state.js';
import type { Effect, EffectInput } from '../records.js';
import { StoreError } from '../store-error.js';
import { PendingIndex } from './pending-index.js';

/** Adds the effect as pending unless its key exists; returns the stored effect and whether it is new. */
export function enqueueEffectIn(state: HotState, input: EffectInput, now: number): { effect: Effect; created: boolean } {
  return addEffectIn(state, input, now, 'pending');
}

/**
 * A decision's effects and its decided mark (`decidedKey`, stored done): all of them unless the mark exists, in which
 * case nothing changes and the effects already stored under those keys are returned (`recorded` false).
 */
export function recordDecisionIn(
  state: HotState,
  contactKey: string,
  decidedKey: string,
  inputs: readonly EffectInput[],
  now: number,
): { recorded: boolean; effects: Array<{ effect: Effect; created: boolean }> } {
  const mark = recordDoneIn(state, { key: decidedKey, kind: 'decision', contactKey, payload: null }, now);
  if (!mark.created) {
    const known = inputs.flatMap((input) => {
      const effect = state.outbox.get(input.key);
      return effect ? [{ effect, created: false }] : [];
    });
    return { recorded: false, effects: known };
  }
  return { recorded: true, effects: inputs.map((input) => enqueueEffectIn(state, input, now)) };
}

/**
 * Records a step that needs no performing as done at once (a decision's "decided" mark): it keeps its key like any
 * finished effect, so the step is never taken twice, and never enters the pending list. Unless its key exists.
 */
export function recordDoneIn(state: HotState, input: EffectInput, now: number): { effect: Effect; created: boolean } {
  return addEffectIn(state, input, now, 'done');
}

function addEffectIn(state: HotState, input: EffectInput, now: number, status: 'pending' | 'done'): { effect: Effect; created: boolean } {
  const existing = state.outbox.get(input.key);
  if (existing) return { effect: existing, created: false };
  const effect: Effect = {
    ...input,
    // A finished effect keeps its key, status and result; its payload is null.
    ...(status === 'done' ? { payload: null } : {}),
    seq: state.meta.nextEffectSeq,
    status,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  state.meta.nextEffectSeq += 1;
  state.outbox.set(effect.key, effect);
  if (status === 'pending') state.pendingEffects.add(effect.key, effect.contactKey);
  return { effect, created: true };
}

export function pendingEffectsIn(state: HotState, contactKey?: string): Effect[] {
  const pending: Effect[] = [];
  for (const key of state.pendingEffects.keys(contactKey)) {
    const effect = state.outbox.get(key);
    if (effect) pending.push(effect);
  }
  return pending.sort((a, b) => a.seq - b.seq);
}

function requireEffect(state: HotState, key: string): Effect {
  const effect = state.outbox.get(key);
  if (!effect) throw new StoreError('invalid', `No effect with key ${key} in the outbox; nothing was changed.`);
  return effect;
}

export function completeEffectIn(state: HotState, key: string, result: unknown, now: number): Effect {
  const effect = requireEffect(state, key);
  if (effect.status === 'done') return effect;
  // Once done only the key matters (it keeps the effect from running twice): drop the payload to stay small.
  const done: Effect = { ...effect, payload: null, status: 'done', attempts: effect.attempts + 1, updatedAt: now };
  delete done.retryAt;
  if (result !== undefined) done.result = result;
  state.outbox.set(key, done);
  state.pendingEffects.delete(key, effect.contactKey);
  return done;
}

export function failEffectIn(state: HotState, key: string, error: string, retryAt: number | undefined, now: number): Effect {
  const effect = requireEffect(state, key);
  if (effect.status === 'done') {
    throw new StoreError('invalid', `Effect ${key} is already done; it cannot fail afterwards.`);
  }
  const failed: Effect = {
    ...effect,
    status: retryAt === undefined ? 'failed' : 'pending',
    attempts: effect.attempts + 1,
    lastError: error,
    updatedAt: now,
  };
  if (retryAt === undefined) {
    delete failed.retryAt;
    state.pendingEffects.delete(key, effect.contactKey);
  } else {
    failed.retryAt = retryAt;
  }
  state.outbox.set(key, failed);
  return failed;
}

/** Drops finished effects (done or given up) last touched before the cut-off; pending ones stay. */
export function pruneEffectsIn(state: HotState, beforeMs: number): number {
  let dropped = 0;
  for (const [key, effect] of state.outbox.entries()) {
    if (effect.status !== 'pending' && effect.updatedAt < beforeMs) {
      state.outbox.delete(key);
      dropped += 1;
    }
  }
  return dropped;
}

/** Rebuilds the pending index after loading. */
export function indexPendingEffects(state: HotState): void {
  state.pendingEffects = new PendingIndex();
  for (const effect of state.outbox.values()) if (effect.status === 'pending') state.pendingEffects.add(effect.key, effect.contactKey);
}
