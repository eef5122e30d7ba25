import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ConversationSlot } from './hot-state.js';
import { conversationSchema, effectSchema } from './records.js';
import type { Effect } from './records.js';
import { shardFileName, shardOf } from './sharded-map.js';
import type { ShardedMap } from './sharded-map.js';
import { isCode } from './lock-file.js';
import { StoreError, describeCause, describeJsonFailure } from './store-error.js';

/** Where a line is in its shard file, and whether that file is its key's home. */
export interface LinePlace {
  at: number;
  length: number;
  home: (key: string) => boolean;
}

/** Turns one parsed line into its entry, or says what is wrong with it. */
export type LineDecoder<V> = (data: unknown, line: string, place?: LinePlace) => { entry: [string, V] } | { error: z.ZodError };

/**
 * The entries of a shard file read from elsewhere than its lines (its index, see `shard-index.ts`), or undefined
 * when that cannot be trusted for exactly these bytes: then every line is decoded.
 */
export type ShardShortcut<V> = (path: string, buffer: Buffer, index: number) => Promise<Array<[string, V]> | undefined>;

const LEAVE_IT = 'The file was left unchanged: fix it, restore a backup, or move the data directory away.';

/**
 * Reads every shard file of `dir` into the map, validating each line: one that does not parse or fails
 * the schema refuses the start, naming the file, the line and the path of the problem. A shard the `shortcut`
 * vouches for (its index, whose digest matches the shard's bytes) is taken from it without decoding its lines.
 */
export async function loadShards<V>(dir: string, map: ShardedMap<V>, decode: LineDecoder<V>, shortcut?: ShardShortcut<V>): Promise<void> {
  const misplaced = new Set<number>();
  /** With a shortcut, a shard that had to be decoded line by line is rewritten (with its index) by the next snapshot. */
  const rewrite = new Set<number>();
  const reads: Array<Promise<ShardRead<V>> | undefined> = [];
  const readAhead = (index: number) => {
    if (index >= map.shardCount) return;
    const read = readShard(join(dir, shardFileName(index)), index, shortcut);
    // Awaited in its turn; until then a failure must not count as unhandled.
    read.catch(() => undefined);
    reads[index] = read;
  };
  for (let index = 0; index < READ_AHEAD; index += 1) readAhead(index);
  for (let index = 0; index < map.shardCount; index += 1) {
    readAhead(index + READ_AHEAD);
    const { path, buffer, entries } = await reads[index]!;
    reads[index] = undefined;
    if (!buffer) continue;
    const place = (key: string, value: V) => {
      const home = shardOf(key, map.shardCount);
      // A record in the wrong file (or twice) is kept once and both files are rewritten.
      if (!map.load(home, key, value) || home !== index) misplaced.add(home).add(index);
    };
    if (entries) {
      for (const [key, value] of entries) place(key, value);
      continue;
    }
    if (shortcut && buffer.length > 0) rewrite.add(index);
    const isHome = (key: string) => shardOf(key, map.shardCount) === index;
    // Each line decoded on its own: a string cut from the whole file's text would keep all of it alive.
    let lineNumber = 0;
    for (let at = 0; at < buffer.length; ) {
      let end = buffer.indexOf(0x0a, at);
      if (end < 0) end = buffer.length;
      lineNumber += 1;
      if (end > at) {
        const line = buffer.toString('utf8', at, end);
        const [key, value] = decodeLine(line, decode, path, lineNumber, { at, length: end - at, home: isHome });
        place(key, value);
      }
      at = end + 1;
    }
  }
  // What was read is not a change: only files to fix are written again.
  map.takeDirty();
  map.markDirty(misplaced);
  map.markDirty(rewrite);
}

/** Shards read while an earlier one is placed: a read waits on the thread pool, slow on a busy machine. */
const READ_AHEAD = 8;

interface ShardRead<V> {
  path: string;
  /** Undefined: there is no such file. */
  buffer: Buffer | undefined;
  entries: Array<[string, V]> | undefined;
}

async function readShard<V>(path: string, index: number, shortcut: ShardShortcut<V> | undefined): Promise<ShardRead<V>> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return { path, buffer: undefined, entries: undefined };
    throw new StoreError('io', `Cannot read ${path}: ${describeCause(error)}.`, { cause: error });
  }
  const entries = shortcut && buffer.length > 0 ? await shortcut(path, buffer, index) : undefined;
  return { path, buffer, entries };
}

function decodeLine<V>(line: string, decode: LineDecoder<V>, path: string, lineNumber: number, place: LinePlace): [string, V] {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new StoreError(
      'corrupt',
      `The store file ${path} line ${lineNumber} is not valid JSON (${describeJsonFailure(error)}). ${LEAVE_IT}`,
    );
  }
  const result = decode(data, line, place);
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

/** Like `decodeConversationLine`, but a record untouched since `coldBefore` stays in its file (cold). */
export function coldConversationDecoder(coldBefore: number): LineDecoder<ConversationSlot> {
  return (data, line, place) => {
    const decoded = decodeConversationLine(data, line);
    if ('error' in decoded || !place) return decoded;
    const [key, slot] = decoded.entry;
    if (!('json' in slot) || slot.updatedAt >= coldBefore || !place.home(key)) return decoded;
    return { entry: [key, { at: place.at, length: place.length, owner: slot.owner, updatedAt: slot.updatedAt }] };
  };
}

const seenLineSchema = z.tuple([z.string(), z.number()]);

export const decodeSeenLine: LineDecoder<number> = (data) => {
  const result = seenLineSchema.safeParse(data);
  return result.success ? { entry: result.data } : { error: result.error };
};

export const decodeEffectLine: LineDecoder<Effect> = (data) => {
  const result = effectSchema.safeParse(data);
  return result.success ? { entry: [result.data.key, result.data] } : { error: result.error };
};
