import type { HotState } from '../hot-state.js';
import type { ConversationRecord, Owner } from '../records.js';
import type { OwnerCounts } from '../store.js';

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
  for (const record of state.conversations.values()) {
    if (owner === undefined || record.owner === owner) found.push(record);
  }
  return found;
}

export function countByOwnerIn(state: HotState): OwnerCounts {
  const counts: OwnerCounts = { bot: 0, agents: 0, paused: 0, unknown: 0, archived: state.archived.size };
  for (const record of state.conversations.values()) counts[record.owner] += 1;
  return counts;
}

/**
 * Conversations untouched since the cut-off and with nothing in flight: a contact with a pending
 * mention or effect stays hot however old its record is.
 */
export function inactiveConversationsIn(state: HotState, beforeMs: number): ConversationRecord[] {
  const busy = new Set<string>(state.inbox.map((mention) => mention.key));
  for (const effect of state.outbox.values()) if (effect.status === 'pending') busy.add(effect.contactKey);
  return listConversationsIn(state).filter((record) => record.updatedAt < beforeMs && !busy.has(record.key));
}
