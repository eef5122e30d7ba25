import { z } from 'zod';
import { JsonMap } from './json-map.js';
import {
  conversationSchema,
  cursorSchema,
  effectSchema,
  escalationSchema,
  inboundMentionSchema,
  metaSchema,
} from './records.js';
import type {
  ConversationRecord,
  Effect,
  Escalation,
  InboundMention,
  StoredCursor,
} from './records.js';

export const CURRENT_SCHEMA_VERSION = 1;

/** Where an archived conversation sits in the cold archive (byte offset and length in the file). */
export const archiveRefSchema = z.object({ at: z.number(), offset: z.number().int(), length: z.number().int() });
export type ArchiveRef = z.infer<typeof archiveRefSchema>;

const hotMetaSchema = metaSchema.extend({ nextEscalationSeq: z.number().int(), nextEffectSeq: z.number().int() });
export type HotMeta = z.infer<typeof hotMetaSchema>;

/**
 * The hot file: everything the bridge touches while running. Cold data (archived conversations, the
 * audit log) lives in append-only JSON Lines files beside it so that every write of this file stays small.
 */
export const hotFileSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  meta: hotMetaSchema,
  conversations: z.record(z.string(), conversationSchema),
  archived: z.record(z.string(), archiveRefSchema),
  /** Every inbound mention id recorded, with when it was first seen (pruned by age). */
  seen: z.record(z.string(), z.number()),
  /** Recorded mentions not yet processed, in the order they were recorded. */
  inbox: z.array(inboundMentionSchema),
  outbox: z.record(z.string(), effectSchema),
  cursors: z.record(z.string(), cursorSchema),
  escalations: z.record(z.string(), escalationSchema),
});
export type HotFile = z.infer<typeof hotFileSchema>;

/** The hot state in memory: the file's shape with Maps for the keyed collections. */
export interface HotState {
  schemaVersion: number;
  meta: HotMeta;
  conversations: JsonMap<ConversationRecord>;
  archived: JsonMap<ArchiveRef>;
  seen: JsonMap<number>;
  inbox: InboundMention[];
  outbox: JsonMap<Effect>;
  cursors: JsonMap<StoredCursor>;
  escalations: JsonMap<Escalation>;
}

export function emptyHotState(now: number): HotState {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    meta: { createdAt: now, values: {}, nextEscalationSeq: 1, nextEffectSeq: 1 },
    conversations: new JsonMap(),
    archived: new JsonMap(),
    seen: new JsonMap(),
    inbox: [],
    outbox: new JsonMap(),
    cursors: new JsonMap(),
    escalations: new JsonMap(),
  };
}

export function hotStateFromFile(file: HotFile): HotState {
  return {
    schemaVersion: file.schemaVersion,
    meta: file.meta,
    conversations: JsonMap.from(file.conversations),
    archived: JsonMap.from(file.archived),
    seen: JsonMap.from(file.seen),
    inbox: file.inbox,
    outbox: JsonMap.from(file.outbox),
    cursors: JsonMap.from(file.cursors),
    escalations: JsonMap.from(file.escalations),
  };
}
