import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { CONVERSATIONS_DIR, conversationShardText, settleShard } from './cold-conversations.js';
import { coreFileText, shardedTables } from './hot-state.js';
import { shardIndexPath, shardIndexText } from './shard-index.js';
import type { HotState } from './hot-state.js';
import type { JournalFiles } from './journal-files.js';
import { PRIVATE_FILE_MODE } from './private-files.js';
import { shardFileName } from './sharded-map.js';
import type { ShardedMap } from './sharded-map.js';
import { StoreError, describeCause } from './store-error.js';
import { syncDir } from './sync-dir.js';
import type { SyncRecord } from './sync-record.js';

export const STORE_FILE = 'store.json';
const NEXT = '.next';
const PARALLEL_SHARD_WRITES = 8;

interface TakenTable {
  name: string;
  table: ShardedMap<unknown>;
  dirty: number[];
  eager: Map<number, string> | undefined;
}

/**
 * The snapshot: the core file and the shard files changed since the last one. Each file is written
 * with lowdb to `<name>.next`, synced, then renamed over `<name>`, so a power cut never leaves a
 * renamed file whose content is not on disk; the core goes last and names the last journal record it
 * covers. Replaying the journal from an older core over newer shards changes nothing (records hold
 * full values), so a snapshot cut short at any step loses nothing.
 */
export interface SnapshotCold {
  /** Conversations untouched since then leave memory once their shard is written. */
  coldBefore: number;
  /** Keys in a journal record being written (their slot must stay in memory until it is). */
  journalPending: (key: string) => boolean;
  /** A conversations shard file was just renamed into place: a handle kept open on the old one must not be used. */
  replaced?: (path: string) => void;
  /**
   * Resolves once the journal holds, synced, every change made so far. A conversations shard is built after the cut
   * and may hold a decision whose journal record is not synced yet (its effects are only in the journal): renamed
   * first, a power cut would keep the decision's new state without its effects.
   */
  journalSynced?: () => Promise<void>;
}

export async function writeSnapshot(
  dataDir: string,
  state: HotState,
  journal: JournalFiles,
  journalSeq: () => number,
  cold: SnapshotCold,
  syncRecord?: SyncRecord,
): Promise<number> {
  // A consistent cut, taken between two journal records: seen ids and the outbox at the same moment as
  // the core (a seen id without its inbox entry would be a mention skipped for ever). Conversations may
  // be newer than the cut (their texts are built when their turn comes, so memory stays bounded).
  const { coreText, tables } = await journal.rotate(() => {
    const taken: TakenTable[] = shardedTables(state).map(([name, table]) => {
      const dirty = table.takeDirty();
      const eager = name === 'conversations' ? undefined : new Map(dirty.map((index) => [index, table.shardText(index)]));
      return { name, table, dirty, eager };
    });
    return { coreText: coreFileText(state, journalSeq()), tables: taken };
  });
  let bytes = 0;
  try {
    const tasks: Array<() => Promise<void>> = [];
    for (const { name, table, dirty, eager } of tables) {
      for (const index of dirty) {
        const path = join(dataDir, name, shardFileName(index));
        tasks.push(async () => {
          if (name === CONVERSATIONS_DIR) {
            const { text, placed } = await conversationShardText(path, state.conversations, index);
            const indexPath = shardIndexPath(path);
            const indexText = shardIndexText(text, placed);
            bytes += Buffer.byteLength(text) + Buffer.byteLength(indexText);
            await Promise.all([writeSynced(path, text), writeSynced(indexPath, indexText)]);
            await cold.journalSynced?.();
            // Index and shard are renamed one after the other: a crash between leaves an index whose digest does
            // not match the shard beside it, which the open ignores (it decodes that shard line by line).
            await rename(`${indexPath}${NEXT}`, indexPath);
            await rename(`${path}${NEXT}`, path);
            // Right after the rename, before anything else runs: cold slots must point into the new file, and
            // no read may use them with the old file (kept open for cold reads).
            cold.replaced?.(path);
            settleShard(state.conversations, placed, cold.coldBefore, cold.journalPending);
            return;
          }
          const text = eager?.get(index) ?? table.shardText(index);
          bytes += Buffer.byteLength(text);
          await writeDurably(path, text);
        });
      }
    }
    await runLimited(tasks, PARALLEL_SHARD_WRITES);
    for (const { name, dirty } of tables) if (dirty.length > 0) await syncDir(join(dataDir, name));
    bytes += Buffer.byteLength(coreText);
    const corePath = join(dataDir, STORE_FILE);
    await writeDurably(corePath, coreText, () => syncRecord?.coreRenaming(corePath));
    await syncDir(dataDir);
    await syncRecord?.coreSynced(corePath);
  } catch (error) {
    for (const { table, dirty } of tables) table.markDirty(dirty);
    if (error instanceof StoreError) throw error;
    throw new StoreError('io', `Cannot write a snapshot in ${dataDir}: ${describeCause(error)}.`, { cause: error });
  }
  await journal.deleteCovered();
  return bytes;
}

async function writeDurably(path: string, text: string, beforeRename?: () => Promise<void> | undefined): Promise<void> {
  await writeSynced(path, text);
  await beforeRename?.();
  await rename(`${path}${NEXT}`, path);
}

/** Writes `<path>.next`, private and synced, ready to be renamed over `path`. */
async function writeSynced(path: string, text: string): Promise<void> {
  const next = `${path}${NEXT}`;
  await new TextFile(next).write(text);
  const handle = await open(next, 'r+');
  try {
    // lowdb's temp file gets the umask's mode: ours is set before the name becomes visible.
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Half-written snapshot files of a crash (`*.next`, lowdb's `.*.tmp`): never part of the state. */
export async function removeLeftovers(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (const name of await readdir(dir)) {
      if (name.endsWith(NEXT) || (name.startsWith('.') && name.endsWith('.tmp'))) await rm(join(dir, name), { force: true });
    }
  }
}

/** Runs the tasks at most `limit` at a time; waits for all, then throws the first failure. */
async function runLimited(tasks: Array<() => Promise<void>>, limit: number): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next]!;
      next += 1;
      try {
        await task();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure) throw failure.error;
}
