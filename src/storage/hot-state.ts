import { z } from 'zod';
import { ConversationTable } from './conversation-table.js';
import { JsonMap } from './json-map.js';
import {
  cursorSchema,
  effectSchema,
  escalationSchema,
  inboundMentionSchema,
  metaSchema,
} from './records.js';
import type { Effect, Escalation, InboundMention, StoredCursor } from './records.js';

export const CURRENT_SCHEMA_VERSION = 1;

const hotMetaSchema = metaSchema.extend({ nextEscalationSeq: z.number().int(), nextEffectSeq: z.number().int() });
export type HotMeta = z.infer<typeof hotMetaSchema>;

/**
 * The core file: everything the bridge touches while running except the conversations themselves,
 * which live in shard files beside it, and the cold data (archive, audit log) in append-only files.
 */
export const coreFileSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  meta: hotMetaSchema,
  /** Keys of archived conversations, with when they were archived. */
  archived: z.record(z.string(), z.number()),
  /** Every inbound mention id recorded, with when it was first seen (pruned by age). */
  seen: z.record(z.string(), z.number()),
  /** Recorded mentions not yet processed, in the order they were recorded. */
  inbox: z.array(inboundMentionSchema),
  outbox: z.record(z.string(), effectSchema),
  cursors: z.record(z.string(), cursorSchema),
  escalations: z.record(z.string(), escalationSchema),
});
export type CoreFile = z.infer<typeof coreFileSchema>;

export interface HotState {
  schemaVersion: number;
  meta: HotMeta;
  conversations: ConversationTable;
  archived: JsonMap<number>;
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
    conversations: new ConversationTable(),
    archived: new JsonMap(),
    seen: new JsonMap(),
    inbox: [],
    outbox: new JsonMap(),
    cursors: new JsonMap(),
    escalations: new JsonMap(),
  };
}

export function hotStateFromCore(file: CoreFile): HotState {
  return {
    schemaVersion: file.schemaVersion,
    meta: file.meta,
    conversations: new ConversationTable(),
    archived: JsonMap.from(file.archived),
    seen: JsonMap.from(file.seen),
    inbox: file.inbox,
    outbox: JsonMap.from(file.outbox),
    cursors: JsonMap.from(file.cursors),
    escalations: JsonMap.from(file.escalations),
  };
}

/** The core file's content: the state without its conversations (JsonMaps serialise as objects). */
export function coreFileText(state: HotState): string {
  const { conversations: _conversations, ...core } = state;
  return JSON.stringify(core);
}
