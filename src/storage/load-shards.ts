import { join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { z } from 'zod';
import type { ConversationSlot } from './hot-state.js';
import { conversationSchema, effectSchema } from './records.js';
import type { Effect } from './records.js';
import { shardFileName, shardOf } from './sharded-map.js';
import type { ShardedMap } from './sharded-map.js';
import { StoreError, describeCause, describeJsonFailure } from './store-error.js';

/** Turns one parsed line into its entry, or says what is wrong with it. */
export type LineDecoder<V> = (data: unknown, line: string) => { entry: [string, V] } | { error: z.ZodError };

const LEAVE_IT = 'The file was left unchanged: fix it, restore a backup, or move the data directory away.';

/**
 * Reads every shard file of `dir` into the map, validating each line: one that does not parse or fails
 * the schema refuses the start, naming the file, the line and the path of the problem.
 */
export async function loadShards<V>(dir: string, map: ShardedMap<V>, decode: LineDecoder<V>): Promise<void> {
  const misplaced = new Set<number>();
  for (let index = 0; index < map.shardCount; index += 1) {
    const path = join(dir, shardFileName(index));
    let text: string | null;
    try {
      text = await new TextFile(path).read();
    } catch (error) {
      throw new StoreError('io', `Cannot read ${path}: ${describeCause(error)}.`, { cause: error });
    }
    if (text === null) continue;
    let lineNumber = 0;
    for (const line of text.split('\n')) {
      lineNumber += 1;
      if (line.length === 0) continue;
      const [key, value] = decodeLine(line, decode, path, lineNumber);
      const home = shardOf(key, map.shardCount);
      // A record in the wrong file (or twice) is kept once and both files are rewritten.
      if (home !== index || map.has(key)) misplaced.add(home).add(index);
      map.set(key, value);
    }
  }
  map.takeDirty();
  map.markDirty(misplaced);
}

function decodeLine<V>(line: string, decode: LineDecoder<V>, path: string, lineNumber: number): [string, V] {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new StoreError(
      'corrupt',
      `The store file ${path} line ${lineNumber} is not valid JSON (${describeJsonFailure(error)}). ${LEAVE_IT}`,
    );
  }
  const result = decode(data, line);
  if ('error' in result) {
    throw new StoreError(
      'schema',
      `The store file ${path} line ${lineNumber} does not match the schema:\n${z.prettifyError(result.error)}\n${LEAVE_IT}`,
    );
  }
  return result.entry;
}

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
