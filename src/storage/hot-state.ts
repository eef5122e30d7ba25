import { z } from 'zod';
import { ANY_TOPIC, cursorSchema, escalationSchema, inboundMentionSchema, mentionRef, metaSchema } from './records.js';
import type { Effect, Escalation, InboundMention, Owner, StoredCursor } from './records.js';

export const CURRENT_SCHEMA_VERSION = 2;

export const hotMetaSchema = metaSchema.extend({ nextEscalationSeq: z.number().int(), nextEffectSeq: z.number().int() });
export type HotMeta = z.infer<typeof hotMetaSchema>;

/**
 * The core of the older layouts: the journal store's `store.json`, the core row `bridge_core` of schema steps 1 and
 * 2 (read once, then moved into the tables of each kind).
 */
export const coreFileSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  meta: hotMetaSchema,
  /** Recorded mentions not yet processed, in the order they were recorded. */
  inbox: z.array(inboundMentionSchema),
  cursors: z.record(z.string(), cursorSchema),
  escalations: z.record(z.string(), escalationSchema),
  /** The last journal batch this snapshot holds: recovery replays the batches after it. */
  journalSeq: z.number().int().nonnegative().optional(),
});
export type CoreFile = z.infer<typeof coreFileSchema>;

/**
 * A conversation of an older layout as read: its JSON text with the fields its row needs, or a marker that it was
 * archived.
 */
export type ConversationSlot = { json: string; owner: Owner; updatedAt: number } | { archivedAt: number };

/**
 * The state as the older layouts kept it (the journal store's files, the core row of schema steps 1 and 2), read
 * whole to be written into the tables of each kind (`sql-store/write-legacy-state.ts`).
 */
export interface HotState {
  schemaVersion: number;
  meta: HotMeta;
  inbox: InboundMention[];
  cursors: Map<string, StoredCursor>;
  escalations: Map<string, Escalation>;
  conversations: Map<string, ConversationSlot>;
  /** Every inbound mention recorded, by `topicId/id` (`mentionRef`), with when it was first seen. */
  seen: Map<string, number>;
  outbox: Map<string, Effect>;
}

export function emptyHotState(now: number): HotState {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    meta: { createdAt: now, values: {}, nextEscalationSeq: 1, nextEffectSeq: 1 },
    inbox: [],
    cursors: new Map(),
    escalations: new Map(),
    conversations: new Map(),
    seen: new Map(),
    outbox: new Map(),
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

/** The collections older layouts kept in shards, by shard name, for loading. */
export function shardedTables(state: HotState): Array<[string, Map<string, unknown>]> {
  return [
    ['conversations', state.conversations as Map<string, unknown>],
    ['seen', state.seen as Map<string, unknown>],
    ['outbox', state.outbox as Map<string, unknown>],
  ];
}

/** Whether the mention `topicId`/`id` was recorded (or, before the upgrade to topic keys, its id in any topic). */
export function hasSeenIn(state: HotState, topicId: string, id: string): boolean {
  return state.seen.has(mentionRef(topicId, id)) || state.seen.has(mentionRef(ANY_TOPIC, id));
}
