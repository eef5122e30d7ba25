import type { ConversationSlot, HotState } from '../hot-state.js';
import type { ConversationRecord, Owner } from '../records.js';
import type { OwnerCounts } from '../store.js';

export type HotSlot = Extract<ConversationSlot, { json: string }>;
/** Left in the database: read on demand (`Persistence.readCold`). */
export type ColdSlot = { owner: Owner; updatedAt: number };
/** In the hot set: in memory or cold (not archived). */
export type LiveSlot = HotSlot | ColdSlot;

export function isHot(slot: ConversationSlot | undefined): slot is HotSlot {
  return slot !== undefined && 'json' in slot;
}

export function isCold(slot: ConversationSlot | undefined): slot is ColdSlot {
  return slot !== undefined && !('json' in slot) && 'owner' in slot;
}

export function isLive(slot: ConversationSlot | undefined): slot is LiveSlot {
  return isHot(slot) || isCold(slot);
}

export function entryOf(record: ConversationRecord, json = JSON.stringify(record)): HotSlot {
  return { json, owner: record.owner, updatedAt: record.updatedAt };
}

/**
 * A fresh object each time: callers may change what they get without touching the store. (Keeping hot records parsed
 * and handing out copies was tried: cheaper per read in process, no better in the bridge, where the kept records
 * outlive the young generation and the copies cost nearly a parse.)
 */
export function recordOf(entry: HotSlot): ConversationRecord {
  return JSON.parse(entry.json) as ConversationRecord;
}

/** Keeps the last `maxLines` lines, each cut to `maxLineChars`, so a record never grows without bound. */
export function boundTranscript(record: ConversationRecord, maxLines: number, maxLineChars: number): ConversationRecord {
  const lines = record.transcript.length > maxLines ? record.transcript.slice(-maxLines) : record.transcript;
  const needsCut = lines.some((line) => line.text.length > maxLineChars);
  if (lines === record.transcript && !needsCut) return record;
  return {
    ...record,
    transcript: needsCut
      ? lines.map((line) => (line.text.length > maxLineChars ? { ...line, text: `${line.text.slice(0, maxLineChars - 1)}…` } : line))
      : lines,
  };
}

/** Hot-set conversations of the owner (cold ones are read by the caller). */
export function listConversationsIn(state: HotState, owner?: Owner, updatedSince?: number): Array<[string, LiveSlot]> {
  const found: Array<[string, LiveSlot]> = [];
  state.conversations.forEach((slot, key) => {
    if (!isLive(slot) || (owner !== undefined && slot.owner !== owner)) return;
    if (updatedSince === undefined || slot.updatedAt >= updatedSince) found.push([key, slot]);
  });
  return found;
}

export function countByOwnerIn(state: HotState): OwnerCounts {
  const map = state.conversations;
  const of = (owner: Owner) => map.tally(owner) + map.tally(`cold:${owner}`);
  return { bot: of('bot'), agents: of('agents'), paused: of('paused'), unknown: of('unknown'), archived: map.tally('archived') };
}

/** Conversations left on disk (cold), of all owners. */
export function coldCountIn(state: HotState): number {
  const map = state.conversations;
  return map.tally('cold:bot') + map.tally('cold:agents') + map.tally('cold:paused') + map.tally('cold:unknown');
}

/**
 * Conversations untouched since the cut-off and with nothing in flight: a contact with a pending
 * mention or effect stays hot however old its record is.
 */
export function inactiveConversationsIn(state: HotState, beforeMs: number): Array<[string, LiveSlot]> {
  const busy = new Set<string>(state.inbox.map((mention) => mention.key));
  for (const effect of state.outbox.values()) if (effect.status === 'pending') busy.add(effect.contactKey);
  const found: Array<[string, LiveSlot]> = [];
  for (const [key, slot] of state.conversations.entries()) {
    if (isLive(slot) && slot.updatedAt < beforeMs && !busy.has(key)) found.push([key, slot]);
  }
  return found;
}

/**
 * Whether a conversation's JSON text may hold a transcript line dated before `beforeMs`, read without parsing it: the
 * record's text is written in its schema's order, the transcript after the dialog and followed only by plain fields,
 * so its last `"transcript":[` is the transcript and its first line's `at` comes first. Lines are kept in order.
 * Anything else (a text not of that form) answers yes: the record is then parsed and looked at.
 */
export function mayHoldLinesBefore(json: string, beforeMs: number): boolean {
  const at = json.lastIndexOf('"transcript":[');
  if (at < 0) return true;
  const first = /^(?:\]|\{"at":(-?[\d.e+]+)[,}])/.exec(json.slice(at + 14, at + 60));
  if (!first) return true;
  return first[1] !== undefined && Number(first[1]) < beforeMs;
}

/**
 * Removes transcript lines dated before `beforeMs` from the conversations held in memory, in place (their rows, if
 * any, are the persistence's to trim); returns the lines removed and from how many conversations. Yields to the event
 * loop now and then: a pass over thousands never holds it long.
 */
export async function trimHotLinesIn(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }> {
  const result = { lines: 0, conversations: 0 };
  let seen = 0;
  for (const [key] of listConversationsIn(state)) {
    if (++seen % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    const now = state.conversations.get(key);
    if (!isHot(now) || !mayHoldLinesBefore(now.json, beforeMs)) continue;
    const record = recordOf(now);
    const kept = record.transcript.filter((line) => line.at >= beforeMs);
    if (kept.length === record.transcript.length) continue;
    result.lines += record.transcript.length - kept.length;
    result.conversations += 1;
    state.conversations.replaceQuietly(key, entryOf({ ...record, transcript: kept }));
  }
  return result;
}
