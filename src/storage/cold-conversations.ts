import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationSlot } from './hot-state.js';
import { slotLine } from './hot-state.js';
import { isCode } from './lock-file.js';
import type { Owner } from './records.js';
import { shardFileName, shardOf } from './sharded-map.js';
import type { ShardedMap } from './sharded-map.js';
import { isCold, isLive } from './state/conversations.js';
import type { ColdSlot } from './state/conversations.js';
import type { ColdShardFiles } from './cold-shard-files.js';

/**
 * Cold conversations stay out of memory: a conversation untouched for a while keeps only its owner, its
 * date and where its line is in the snapshot's shard file; it is read from there when asked for. Only
 * the file store has cold conversations (made at load and after each snapshot of their shard).
 */
export const CONVERSATIONS_DIR = 'conversations';

export function conversationShardPath(dataDir: string, key: string, shardCount: number): string {
  return join(dataDir, CONVERSATIONS_DIR, shardFileName(shardOf(key, shardCount)));
}

/**
 * The line of a cold conversation, or undefined when it is no longer where the slot says (a snapshot moved it).
 * Read through `files`, which keeps shard files open between reads; a file found stale is forgotten.
 */
export async function readColdLine(files: ColdShardFiles, path: string, key: string, slot: ColdSlot): Promise<string | undefined> {
  let text: string;
  try {
    text = await files.with(path, async (handle) => {
      const buffer = Buffer.alloc(slot.length);
      const { bytesRead } = await handle.read(buffer, 0, slot.length, slot.at);
      return buffer.subarray(0, bytesRead).toString('utf8');
    });
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  // A snapshot may have replaced the file since the slot was read: check it is this record, this version.
  try {
    const record = JSON.parse(text) as { key?: unknown; updatedAt?: unknown };
    if (record.key === key && record.updatedAt === slot.updatedAt) return text;
  } catch {
    // Not a whole line: the file kept open is an older one.
  }
  files.forget(path);
  return undefined;
}

export interface PlacedLine {
  key: string;
  slot: ConversationSlot;
  at: number;
  length: number;
}

/**
 * The text of a conversations shard for a snapshot, with where each line lands. Cold lines are copied
 * from the shard file as it is now (read before, so the offsets the slots hold still apply).
 */
export async function conversationShardText(
  path: string,
  map: ShardedMap<ConversationSlot>,
  index: number,
): Promise<{ text: string; placed: PlacedLine[] }> {
  let current: Buffer | undefined;
  for (const [, slot] of map.shardEntries(index)) {
    if (isCold(slot)) {
      current = await readFile(path).catch((error: unknown) => {
        if (isCode(error, 'ENOENT')) return Buffer.alloc(0);
        throw error;
      });
      break;
    }
  }
  // From here on synchronous: the shard cannot change under us.
  const lines: string[] = [];
  const placed: PlacedLine[] = [];
  let at = 0;
  for (const [key, slot] of map.shardEntries(index)) {
    const line = isCold(slot)
      ? (current ?? Buffer.alloc(0)).subarray(slot.at, slot.at + slot.length).toString('utf8')
      : slotLine(key, slot);
    const length = Buffer.byteLength(line);
    lines.push(line);
    placed.push({ key, slot, at, length });
    at += length + 1;
  }
  return { text: lines.length === 0 ? '' : `${lines.join('\n')}\n`, placed };
}

/**
 * After the shard file was renamed into place: every cold slot of it moves to its new offsets, and
 * conversations untouched since `coldBefore` (and not waiting for the journal) leave memory.
 */
export function settleShard(
  map: ShardedMap<ConversationSlot>,
  placed: PlacedLine[],
  coldBefore: number,
  journalPending: (key: string) => boolean,
): void {
  for (const { key, slot, at, length } of placed) {
    if (map.get(key) !== slot || !isLive(slot)) continue;
    const owner: Owner = slot.owner;
    if (isCold(slot)) {
      map.replaceQuietly(key, { at, length, owner, updatedAt: slot.updatedAt });
    } else if (slot.updatedAt < coldBefore && !map.isChanged(key) && !journalPending(key)) {
      map.replaceQuietly(key, { at, length, owner, updatedAt: slot.updatedAt });
    }
  }
}
