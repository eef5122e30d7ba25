import { z } from 'zod';
import type { HotState } from '../hot-state.js';
import { hotMetaSchema } from '../hot-state.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from '../load-shards.js';
import type { LineDecoder } from '../load-shards.js';
import { cursorSchema, escalationSchema, inboundMentionSchema, mentionRef } from '../records.js';
import type { InboundMention } from '../records.js';

/**
 * One record of the journal store's journal (release 0.1), read for the import: everything that changed in one
 * group commit, as full values or null for gone, in `[key, value]` pairs:
 * `{"n":7,"meta":{…},"inbox":[[ref,mention|null]],"cursors":[…],"escalations":[…],"conversations":[…],"seen":[…],"outbox":[…]}`.
 */
const pairs = z.array(z.tuple([z.string(), z.unknown()])).optional();
const recordSchema = z.object({
  n: z.number().int().positive(),
  meta: hotMetaSchema.optional(),
  inbox: pairs,
  cursors: pairs,
  escalations: pairs,
  conversations: pairs,
  seen: pairs,
  outbox: pairs,
});
export type JournalRecord = z.infer<typeof recordSchema>;

/** Why a record cannot be replayed, without quoting it: the field path and what was expected. */
export class RecordProblem extends Error {}

export function parseJournalRecord(data: unknown): JournalRecord {
  const result = recordSchema.safeParse(data);
  if (!result.success) throw new RecordProblem(z.prettifyError(result.error));
  return result.data;
}

/** Applies a record to the state, all of it or (a value that fails its schema) nothing. */
export function applyJournalRecord(state: HotState, record: JournalRecord): void {
  const changes: Array<() => void> = [];
  if (record.meta) {
    const meta = record.meta;
    changes.push(() => {
      state.meta = meta;
    });
  }
  // Keyed `topicId/id`; a record written before topic keys (schema version 1) names the id alone.
  const isRef = (ref: string) => (m: InboundMention) => mentionRef(m.topicId, m.id) === ref || (!ref.includes('/') && m.id === ref);
  for (const [ref, value] of record.inbox ?? []) {
    if (value === null) {
      changes.push(() => {
        const index = state.inbox.findIndex(isRef(ref));
        if (index >= 0) state.inbox.splice(index, 1);
      });
    } else {
      const mention = checked(inboundMentionSchema, value, 'inbox');
      changes.push(() => {
        if (!state.inbox.some(isRef(ref))) state.inbox.push(mention);
      });
    }
  }
  keyed(changes, state.cursors, record.cursors, (value) => checked(cursorSchema, value, 'cursors'));
  keyed(changes, state.escalations, record.escalations, (value) => checked(escalationSchema, value, 'escalations'));
  keyed(changes, state.conversations, record.conversations, (value) => decoded(decodeConversationLine, value, 'conversations'));
  keyed(changes, state.seen, record.seen, (value, key) => decoded(decodeSeenLine, [key, value], 'seen'));
  keyed(changes, state.outbox, record.outbox, (value) => decoded(decodeEffectLine, value, 'outbox'));
  for (const change of changes) change();
}

interface KeyedTarget<V> {
  set(key: string, value: V): unknown;
  delete(key: string): boolean;
}

function keyed<V>(
  changes: Array<() => void>,
  target: KeyedTarget<V>,
  entries: Array<[string, unknown]> | undefined,
  decode: (value: unknown, key: string) => V,
): void {
  for (const [key, value] of entries ?? []) {
    if (value === null) {
      changes.push(() => target.delete(key));
    } else {
      const decodedValue = decode(value, key);
      changes.push(() => target.set(key, decodedValue));
    }
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, table: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new RecordProblem(`${table}: ${z.prettifyError(result.error)}`);
  return result.data;
}

function decoded<V>(decode: LineDecoder<V>, value: unknown, table: string): V {
  const result = decode(value, JSON.stringify(value));
  if ('error' in result) throw new RecordProblem(`${table}: ${z.prettifyError(result.error)}`);
  return result.entry[1];
}
