import type { HotState } from '../hot-state.js';
import { ANY_TOPIC, mentionRef } from '../records.js';
import type { InboundMention } from '../records.js';
import { StoreError } from '../store-error.js';

/** Whether the mention `topicId`/`id` was recorded (or, before the upgrade to topic keys, its id in any topic). */
export function hasSeenIn(state: HotState, topicId: string, id: string): boolean {
  return state.seen.has(mentionRef(topicId, id)) || state.seen.has(mentionRef(ANY_TOPIC, id));
}

/** Records the mention unless its topic and id were seen before; returns whether it was new. */
export function recordInboundIn(state: HotState, mention: InboundMention, now: number): boolean {
  if (hasSeenIn(state, mention.topicId, mention.id)) return false;
  const ref = mentionRef(mention.topicId, mention.id);
  state.seen.set(ref, now);
  state.inbox.push(mention);
  return true;
}

/** Service ids are numeric strings: compare them as numbers so `9001` sorts before `10000`. */
export function compareIds(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function pendingInboundIn(state: HotState, key?: string): InboundMention[] {
  return state.inbox
    .filter((mention) => key === undefined || mention.key === key)
    .sort((a, b) => a.addedAt - b.addedAt || compareIds(a.id, b.id));
}

/** Idempotent for a known mention; one never recorded is a caller's mistake worth hearing about. */
export function markInboundProcessedIn(state: HotState, topicId: string, id: string): boolean {
  const index = state.inbox.findIndex((mention) => mention.id === id && mention.topicId === topicId);
  if (index >= 0) {
    state.inbox.splice(index, 1);
    return true;
  }
  if (hasSeenIn(state, topicId, id)) return false;
  throw new StoreError('invalid', `Inbound mention ${id} of topic ${topicId} was never recorded; nothing was changed.`);
}

/** Forgets ids first seen before the cut-off, except mentions still waiting to be processed. */
export function pruneSeenIn(state: HotState, beforeMs: number): number {
  const waiting = new Set(state.inbox.map((mention) => mentionRef(mention.topicId, mention.id)));
  let dropped = 0;
  for (const [id, seenAt] of state.seen.entries()) {
    if (seenAt < beforeMs && !waiting.has(id)) {
      state.seen.delete(id);
      dropped += 1;
    }
  }
  return dropped;
}
