import type { HotState } from '../hot-state.js';
import type { InboundMention } from '../records.js';
import { StoreError } from '../store-error.js';

/** Records the mention unless its id was seen before; returns whether it was new. */
export function recordInboundIn(state: HotState, mention: InboundMention, now: number): boolean {
  if (state.seen.has(mention.id)) return false;
  state.seen.set(mention.id, now);
  state.inbox.push(mention);
  state.inboxChanges.set(mention.id, mention);
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

/** Idempotent for a known id; an id never recorded is a caller's mistake worth hearing about. */
export function markInboundProcessedIn(state: HotState, id: string): boolean {
  const index = state.inbox.findIndex((mention) => mention.id === id);
  if (index >= 0) {
    state.inbox.splice(index, 1);
    state.inboxChanges.set(id, null);
    return true;
  }
  if (state.seen.has(id)) return false;
  throw new StoreError('invalid', `Inbound mention ${id} was never recorded; nothing was changed.`);
}

/** Forgets ids first seen before the cut-off, except mentions still waiting to be processed. */
export function pruneSeenIn(state: HotState, beforeMs: number): number {
  const waiting = new Set(state.inbox.map((mention) => mention.id));
  let dropped = 0;
  for (const [id, seenAt] of state.seen.entries()) {
    if (seenAt < beforeMs && !waiting.has(id)) {
      state.seen.delete(id);
      dropped += 1;
    }
  }
  return dropped;
}
