import { z } from 'zod';
import { cursorSchema, escalationSchema, inboundMentionSchema, metaSchema } from './records.js';
import type { Effect, Escalation, InboundMention, Owner, StoredCursor } from './records.js';
import { PendingIndex } from './state/pending-index.js';
import { TrackedMap } from './tracked-map.js';

export const CURRENT_SCHEMA_VERSION = 2;

export const hotMetaSchema = metaSchema.extend({ nextEscalationSeq: z.number().int(), nextEffectSeq: z.number().int() });
export type HotMeta = z.infer<typeof hotMetaSchema>;

/**
 * The core row (`bridge_core`): the small, busy part of the state. The collections that grow with traffic
 * (conversations, seen mention ids, the outbox) are rows per key beside it (`sql-state.ts`).
 */
export const coreFileSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  meta: hotMetaSchema,
  /** Recorded mentions not yet processed, in the order they were recorded. */
  inbox: z.array(inboundMentionSchema),
  cursors: z.record(z.string(), cursorSchema),
  escalations: z.record(z.string(), escalationSchema),
  /** In an old `store.json`: the last journal record it holds, the import replays those after it (the SQL stores write 0). */
  journalSeq: z.number().int().nonnegative().optional(),
});
export type CoreFile = z.infer<typeof coreFileSchema>;

/**
 * A conversation: in memory as its compact JSON (a third of the parsed objects' memory) with the fields scans
 * need; or cold, its row left in the database (read on demand through `Persistence.readCold`), only the fields
 * scans need in memory; or a marker that it was archived.
 */
export type ConversationSlot =
  | { json: string; owner: Owner; updatedAt: number }
  | { owner: Owner; updatedAt: number }
  | { archivedAt: number };

export interface HotState {
  schemaVersion: number;
  meta: HotMeta;
  inbox: InboundMention[];
  /** Maps, not objects: an id like `__proto__` never collides with an object's internals. */
  cursors: Map<string, StoredCursor>;
  escalations: Map<string, Escalation>;
  conversations: TrackedMap<ConversationSlot>;
  /** Every inbound mention recorded, by `topicId/id` (`mentionRef`), with when it was first seen (pruned by age). */
  seen: TrackedMap<number>;
  outbox: TrackedMap<Effect>;
  /** Keys of pending effects in creation order (derived, never stored). */
  pendingEffects: PendingIndex;
}

/** Counted by owner, cold ones apart too: `<owner>` or `cold:<owner>`, or `archived`. */
function slotClass(slot: ConversationSlot): string {
  if ('json' in slot) return slot.owner;
  if ('owner' in slot) return `cold:${slot.owner}`;
  return 'archived';
}

export function emptyHotState(now: number): HotState {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    meta: { createdAt: now, values: {}, nextEscalationSeq: 1, nextEffectSeq: 1 },
    inbox: [],
    cursors: new Map(),
    escalations: new Map(),
    conversations: new TrackedMap(slotClass),
    seen: new TrackedMap(),
    outbox: new TrackedMap(),
    pendingEffects: new PendingIndex(),
  };
}

export function hotStateFromCore(file: CoreFile): HotState {
  return {
    ...emptyHotState(file.meta.createdAt),
    schemaVersion: file.schemaVersion,
    meta: file.meta,
    inbox: file.inbox,
    cursors: new Map(Object.entries(file.cursors)),
    escalations: new Map(Object.entries(file.escalations)),
  };
}

export function coreFileText(state: HotState, journalSeq: number): string {
  const core: Record<keyof CoreFile, unknown> = {
    schemaVersion: state.schemaVersion,
    meta: state.meta,
    inbox: state.inbox,
    cursors: Object.fromEntries(state.cursors),
    escalations: Object.fromEntries(state.escalations),
    journalSeq,
  };
  return JSON.stringify(core);
}

/** The collections kept a row per key, by name (the journal store's shard directories), for writing and loading alike. */
export function shardedTables(state: HotState): Array<[string, TrackedMap<unknown>]> {
  return [
    ['conversations', state.conversations as TrackedMap<unknown>],
    ['seen', state.seen as TrackedMap<unknown>],
    ['outbox', state.outbox as TrackedMap<unknown>],
  ];
}
