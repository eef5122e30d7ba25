import { OWNERS } from '../shared/owner.js';
import { jsonDataOfProperty } from './json-data.js';
import type { ConversationRecord } from './records.js';

/**
 * `conversationSchema`'s check written out by hand for the store's hottest input (every conversation write), done in
 * the same pass that makes the record JSON data: what zod's output gives through `jsonDataOf`, in the schema's key
 * order, unknown keys left out. It only ever says yes to what the schema accepts; on anything else (or a dialog that
 * is not JSON data) it gives undefined and the caller asks zod, for its verdict and its message. A test holds it
 * to the schema, field by field.
 */

type Kind = 'id' | 'string?' | 'owner' | 'number' | 'number?' | 'dialog' | 'transcript';

/** The schema's fields in its order (a test checks this list against `conversationSchema.shape`). */
export const CONVERSATION_FIELDS: ReadonlyArray<readonly [keyof ConversationRecord, Kind]> = [
  ['key', 'id'],
  ['channel', 'id'],
  ['serviceId', 'id'],
  ['topicId', 'string?'],
  ['contactName', 'string?'],
  ['owner', 'owner'],
  ['ownerConfirmedAt', 'number?'],
  ['ownerChangedAt', 'number?'],
  ['dialog', 'dialog'],
  ['transcript', 'transcript'],
  ['stretchStartedAt', 'number?'],
  ['lastInboundAt', 'number?'],
  ['lastBotReplyAt', 'number?'],
  ['lastHumanActivityAt', 'number?'],
  ['humanSeenAt', 'number?'],
  ['lastMentionId', 'string?'],
  ['lastMentionTopicId', 'string?'],
  ['updatedAt', 'number'],
];

/** `transcriptLineSchema`'s fields in its order. */
export const LINE_FIELDS = ['at', 'from', 'text', 'mentionId', 'topicId'] as const;

const OWNER_SET: ReadonlySet<unknown> = new Set(OWNERS);
const FROM_SET: ReadonlySet<unknown> = new Set(['customer', 'bot', 'agent', 'system']);
/** Tells "not accepted here" from an optional field left out. */
const NO = Symbol('no');

export function conversationDataOf(value: unknown): ConversationRecord | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, kind] of CONVERSATION_FIELDS) {
    const item = field(kind, value[name], name);
    if (item === NO) return undefined;
    if (item !== undefined) out[name] = item;
  }
  return out as ConversationRecord;
}

function field(kind: Kind, item: unknown, name: string): unknown {
  switch (kind) {
    case 'id':
      return typeof item === 'string' && item.length > 0 ? item : NO;
    case 'string?':
      return item === undefined || typeof item === 'string' ? item : NO;
    case 'owner':
      return OWNER_SET.has(item) ? item : NO;
    case 'number':
      return number(item);
    case 'number?':
      return item === undefined ? undefined : number(item);
    case 'dialog':
      return item === undefined ? undefined : dialog(item, name);
    case 'transcript':
      return transcript(item);
  }
}

/** A finite number (zod's `z.number()`), as JSON reads it back: -0 is 0. */
function number(item: unknown): unknown {
  return typeof item === 'number' && Number.isFinite(item) ? item + 0 : NO;
}

/** Opaque to the schema; JSON data or not accepted here (zod's path then gives the store's "not JSON data"). */
function dialog(item: unknown, name: string): unknown {
  try {
    return jsonDataOfProperty(item, name);
  } catch {
    return NO;
  }
}

function transcript(item: unknown): unknown {
  if (!Array.isArray(item)) return NO;
  const out: unknown[] = new Array(item.length);
  for (let i = 0; i < item.length; i += 1) {
    const line: unknown = item[i];
    if (!isObject(line)) return NO;
    const { at, from, text, mentionId, topicId } = line;
    if (typeof at !== 'number' || !Number.isFinite(at) || !FROM_SET.has(from) || typeof text !== 'string') return NO;
    if ((mentionId !== undefined && typeof mentionId !== 'string') || (topicId !== undefined && typeof topicId !== 'string')) return NO;
    const copy: Record<string, unknown> = { at: at + 0, from, text };
    if (mentionId !== undefined) copy.mentionId = mentionId;
    if (topicId !== undefined) copy.topicId = topicId;
    out[i] = copy;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
