import type { ConversationSlot, HotState } from '../hot-state.js';
import type { ConversationRecord, Owner } from '../records.js';
import type { OwnerCounts } from '../store.js';

export type HotSlot = Extract<ConversationSlot, { json: string }>;

export function isHot(slot: ConversationSlot | undefined): slot is HotSlot {
  return slot !== undefined && 'json' in slot;
}

export function entryOf(record: ConversationRecord): HotSlot {
  return { json: JSON.stringify(record), owner: record.owner, updatedAt: record.updatedAt };
}

/** A fresh object each time: callers may change what they get without touching the store. */
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

export function listConversationsIn(state: HotState, owner?: Owner): ConversationRecord[] {
  const found: ConversationRecord[] = [];
  for (const slot of state.conversations.values()) {
    if (isHot(slot) && (owner === undefined || slot.owner === owner)) found.push(recordOf(slot));
  }
  return found;
}

export function countByOwnerIn(state: HotState): OwnerCounts {
  const counts: OwnerCounts = { bot: 0, agents: 0, paused: 0, unknown: 0, archived: 0 };
  for (const slot of state.conversations.values()) {
    if (isHot(slot)) counts[slot.owner] += 1;
    else counts.archived += 1;
  }
  return counts;
}

/**
 * Conversations untouched since the cut-off and with nothing in flight: a contact with a pending
 * mention or effect stays hot however old its record is.
 */
export function inactiveConversationsIn(state: HotState, beforeMs: number): Array<[string, HotSlot]> {
  const busy = new Set<string>(state.inbox.map((mention) => mention.key));
  for (const effect of state.outbox.values()) if (effect.status === 'pending') busy.add(effect.contactKey);
  const found: Array<[string, HotSlot]> = [];
  for (const [key, slot] of state.conversations.entries()) {
    if (isHot(slot) && slot.updatedAt < beforeMs && !busy.has(key)) found.push([key, slot]);
  }
  return found;
}
