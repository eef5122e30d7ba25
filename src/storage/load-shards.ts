import { z } from 'zod';
import type { ConversationSlot } from './hot-state.js';
import { conversationSchema, effectSchema } from './records.js';
import type { Effect } from './records.js';

/**
 * The decoders of a shard's lines (one JSON value a line: a conversation or its archived marker, a seen id, an
 * effect), shared by the SQL stores' shard rows and the import of the journal store's shard files.
 */

/** Turns one parsed line into its entry, or says what is wrong with it. */
export type LineDecoder<V> = (data: unknown, line: string) => { entry: [string, V] } | { error: z.ZodError };

const archivedMarkerSchema = z.object({ archivedKey: z.string().min(1), archivedAt: z.number() });

export const decodeConversationLine: LineDecoder<ConversationSlot> = (data, line) => {
  if (typeof data === 'object' && data !== null && 'archivedKey' in data) {
    const marker = archivedMarkerSchema.safeParse(data);
    return marker.success ? { entry: [marker.data.archivedKey, { archivedAt: marker.data.archivedAt }] } : { error: marker.error };
  }
  const record = conversationSchema.safeParse(data);
  if (!record.success) return { error: record.error };
  return { entry: [record.data.key, { json: line, owner: record.data.owner, updatedAt: record.data.updatedAt }] };
};

const seenLineSchema = z.tuple([z.string(), z.number()]);

export const decodeSeenLine: LineDecoder<number> = (data) => {
  const result = seenLineSchema.safeParse(data);
  return result.success ? { entry: result.data } : { error: result.error };
};

export const decodeEffectLine: LineDecoder<Effect> = (data) => {
  const result = effectSchema.safeParse(data);
  return result.success ? { entry: [result.data.key, result.data] } : { error: result.error };
};
