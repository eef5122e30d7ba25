import { z } from 'zod';
import { hotMetaSchema, slotLine } from './hot-state.js';
import type { ConversationSlot, HotState } from './hot-state.js';
import type { JsonMap } from './json-map.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from './load-shards.js';
import type { LineDecoder } from './load-shards.js';
import { cursorSchema, escalationSchema, inboundMentionSchema, mentionRef } from './records.js';
import type { InboundMention } from './records.js';
import type { ShardedMap } from './sharded-map.js';

/**
 * One journal record: everything that changed since the previous one, as full values (or null for
 * gone), so replaying a record over a state that already has it changes nothing. Pairs, never object
 * keys: an id like `__proto__` stays an id.
 *
 * `{"n":7,"meta":{…},"inbox":[[id,mention|null]],"cursors":[…],"escalations":[…],"conversations":[…],"seen":[…],"outbox":[…]}`
 */
export interface TakenBatch {
  /** The record without its sequence number: `"meta":…,"inbox":…` (may be empty: nothing changed). */
  body: string;
  /** Gives the changes back after a failed write, so the next batch carries them again. */
  restore(): void;
  /** The conversations in the record. */
  conversationKeys: string[];
}

type Pairs = Array<[string, unknown]>;

const KEYED: Array<keyof Pick<HotState, 'cursors' | 'escalations'>> = ['cursors', 'escalations'];
const SHARDED: Array<keyof Pick<HotState, 'conversations' | 'seen' | 'outbox'>> = ['conversations', 'seen', 'outbox'];

/** Takes the changes out of the state (synchronously: a consistent cut) and writes them as one record body. */
export function takeBatch(state: HotState, lastMetaJson: { value: string }): TakenBatch {
  const parts: string[] = [];
  const metaJson = JSON.stringify(state.meta);
  const metaBefore = lastMetaJson.value;
  if (metaJson !== metaBefore) {
    parts.push(`"meta":${metaJson}`);
    lastMetaJson.value = metaJson;
  }
  const inbox = state.inboxChanges;
  state.inboxChanges = new Map();
  if (inbox.size > 0) parts.push(`"inbox":${pairsText([...inbox.keys()], (id) => inbox.get(id), json)}`);
  const keyed = KEYED.map((name) => [name, state[name].takeChanged()] as const);
  for (const [name, keys] of keyed) {
    const map = state[name] as JsonMap<unknown>;
    if (keys.length > 0) parts.push(`"${name}":${pairsText(keys, (key) => map.get(key), json)}`);
  }
  const sharded = SHARDED.map((name) => [name, state[name].takeChanged()] as const);
  for (const [name, keys] of sharded) {
    if (keys.length === 0) continue;
    const map = state[name] as ShardedMap<unknown>;
    // A conversation's slot becomes its JSON text as stored (the record, or its archived marker).
    const text = name === 'conversations' ? (key: string, value: unknown) => slotLine(key, value as ConversationSlot) : json;
    parts.push(`"${name}":${pairsText(keys, (key) => map.get(key), text)}`);
  }
  return {
    conversationKeys: sharded.find(([name]) => name === 'conversations')?.[1] ?? [],
    body: parts.join(','),
    restore: () => {
      lastMetaJson.value = metaBefore;
      for (const [id, value] of inbox) if (!state.inboxChanges.has(id)) state.inboxChanges.set(id, value);
      for (const [name, keys] of keyed) state[name].markChanged(keys);
      for (const [name, keys] of sharded) state[name].markChanged(keys);
    },
  };
}

function json(_key: string, value: unknown): string {
  return JSON.stringify(value);
}

/** `[[key,value],…]`; a value gone (deleted, or null) is `null`. */
function pairsText(keys: string[], lookUp: (key: string) => unknown, text: (key: string, value: unknown) => string): string {
  const out: string[] = [];
  for (const key of keys) {
    const value = lookUp(key);
    out.push(`[${JSON.stringify(key)},${value === undefined || value === null ? 'null' : text(key, value)}]`);
  }
  return `[${out.join(',')}]`;
}

/** Why a record cannot be replayed, without quoting it: the field path and what was expected. */
export class BatchProblem extends Error {}

const pairSchema = z.tuple([z.string(), z.unknown()]);
const recordSchema = z.object({
  n: z.number().int().positive(),
  meta: hotMetaSchema.optional(),
  inbox: z.array(pairSchema).optional(),
  cursors: z.array(pairSchema).optional(),
  escalations: z.array(pairSchema).optional(),
  conversations: z.array(pairSchema).optional(),
  seen: z.array(pairSchema).optional(),
  outbox: z.array(pairSchema).optional(),
});
export type JournalRecord = z.infer<typeof recordSchema>;

export function parseRecord(data: unknown): JournalRecord {
  const result = recordSchema.safeParse(data);
  if (!result.success) throw new BatchProblem(z.prettifyError(result.error));
  return result.data;
}

/** Applies a validated record to the state; every value is checked against its schema first. */
export function applyRecord(state: HotState, record: JournalRecord): void {
  const changes: Array<() => void> = [];
  if (record.meta) {
    const meta = record.meta;
    changes.push(() => {
      state.meta = meta;
    });
  }
  // Inbox changes are keyed `topicId/id`; a record written before the upgrade to topic keys names the id alone.
  const isKey = (key: string) => (mention: InboundMention) =>
    mentionRef(mention.topicId, mention.id) === key || (!key.includes('/') && mention.id === key);
  for (const [key, value] of record.inbox ?? []) {
    if (value === null) {
      changes.push(() => {
        const index = state.inbox.findIndex(isKey(key));
        if (index >= 0) state.inbox.splice(index, 1);
      });
    } else {
      const mention = check(inboundMentionSchema, value, 'inbox');
      changes.push(() => {
        if (!state.inbox.some(isKey(key))) state.inbox.push(mention);
      });
    }
  }
  keyedChanges(changes, state.cursors, record.cursors, (value) => check(cursorSchema, value, 'cursors'));
  keyedChanges(changes, state.escalations, record.escalations, (value) => check(escalationSchema, value, 'escalations'));
  keyedChanges(changes, state.conversations, record.conversations, (value) => decoded(decodeConversationLine, value, 'conversations'));
  keyedChanges(changes, state.seen, record.seen, (value, key) => decoded(decodeSeenLine, [key, value], 'seen'));
  keyedChanges(changes, state.outbox, record.outbox, (value) => decoded(decodeEffectLine, value, 'outbox'));
  // Nothing is applied unless the whole record is valid.
  for (const change of changes) change();
}

interface KeyedTarget<V> {
  set(key: string, value: V): unknown;
  delete(key: string): boolean;
}

function keyedChanges<V>(
  changes: Array<() => void>,
  target: KeyedTarget<V>,
  pairs: Pairs | undefined,
  decode: (value: unknown, key: string) => V,
): void {
  for (const [key, value] of pairs ?? []) {
    if (value === null) {
      changes.push(() => target.delete(key));
    } else {
      const decodedValue = decode(value, key);
      changes.push(() => target.set(key, decodedValue));
    }
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, table: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new BatchProblem(`${table}: ${z.prettifyError(result.error)}`);
  return result.data;
}

function decoded<V>(decode: LineDecoder<V>, value: unknown, table: string): V {
  const result = decode(value, JSON.stringify(value));
  if ('error' in result) throw new BatchProblem(`${table}: ${z.prettifyError(result.error)}`);
  return result.entry[1];
}
