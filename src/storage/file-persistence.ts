import { constants } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { ArchiveShards } from './archive-shards.js';
import { decodeCoreFile } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, coreFileText, emptyHotState, shardedTables } from './hot-state.js';
import type { HotState } from './hot-state.js';
import type { InlineCollections } from './decode-core-file.js';
import { JsonLinesFile } from './jsonl-file.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine, loadShards } from './load-shards.js';
import { shardFileName } from './sharded-map.js';
import type { ShardedMap } from './sharded-map.js';
import { indexPendingEffects } from './state/outbox.js';
import { acquireLock, isCode } from './lock-file.js';
import type { LockHandle } from './lock-file.js';
import type { Persistence } from './persistence.js';
import { ensurePrivateDir, makePrivate } from './private-files.js';
import { auditEntrySchema } from './records.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { entryOf } from './state/conversations.js';
import { StoreError, describeCause } from './store-error.js';
import type { ResolvedStoreOptions, StoreLogger } from './store-options.js';

export const STORE_FILE = 'store.json';
export const ARCHIVE_DIR = 'archive';
export const AUDIT_FILE = 'audit.jsonl';
export const LOCK_FILE = 'store.lock';

/**
 * The data directory. The core state is one compact JSON file and each conversation shard a JSON Lines
 * file, all replaced atomically by lowdb (temp file then rename: a killed process never leaves half a
 * file); the archive and the audit log are append-only JSON Lines files.
 */
export class FilePersistence implements Persistence {
  private readonly core: TextFile;
  private readonly shardFiles = new Map<string, TextFile>();

  private constructor(
    private readonly dataDir: string,
    private readonly auditFile: JsonLinesFile,
    private readonly archive: ArchiveShards,
    private readonly lock: LockHandle,
    private readonly logger: StoreLogger,
  ) {
    this.core = new TextFile(join(dataDir, STORE_FILE));
  }

  /** Locks the directory, then loads (and migrates) the state; refuses files it cannot trust. */
  static async open(
    dataDir: string,
    options: ResolvedStoreOptions,
  ): Promise<{ persistence: FilePersistence; state: HotState; migrated: boolean }> {
    const dirs = [dataDir, join(dataDir, ARCHIVE_DIR), ...shardedTables(emptyHotState(0)).map(([name]) => join(dataDir, name))];
    for (const dir of dirs) {
      await ensurePrivateDir(dir).catch((error: unknown) => {
        throw new StoreError('io', `Cannot create the data directory ${dir}: ${describeCause(error)}.`, { cause: error });
      });
    }
    const lock = await acquireLock(join(dataDir, LOCK_FILE), dataDir, options.logger);
    try {
      const persistence = new FilePersistence(
        dataDir,
        new JsonLinesFile(join(dataDir, AUDIT_FILE)),
        new ArchiveShards(join(dataDir, ARCHIVE_DIR)),
        lock,
        options.logger,
      );
      return { persistence, ...(await persistence.load(options.clock())) };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async writeHot(state: HotState): Promise<number> {
    // Seen ids and the outbox are taken at the same moment as the core: a seen id written without the inbox
    // entry it belongs to (recorded while the core was being written) would be a mention skipped for ever.
    // Conversations may be newer than the core (their texts are built when their turn comes, so memory stays
    // bounded): nothing in them makes the bridge skip work.
    const tasks: Array<() => Promise<void>> = [];
    const taken: Array<[ShardedMap<unknown>, number[]]> = [];
    let bytes = 0;
    for (const [name, table] of shardedTables(state)) {
      const dirty = table.takeDirty();
      taken.push([table, dirty]);
      for (const index of dirty) {
        const eager = name === 'conversations' ? undefined : table.shardText(index);
        tasks.push(() => {
          const text = eager ?? table.shardText(index);
          bytes += Buffer.byteLength(text);
          return this.writeText(this.shardFile(name, index), join(name, shardFileName(index)), text);
        });
      }
    }
    const coreText = coreFileText(state);
    bytes += Buffer.byteLength(coreText);
    try {
      // The core goes first: a crash before the shards leaves an inbox entry whose id load re-adds to `seen`.
      await this.writeText(this.core, STORE_FILE, coreText);
    } catch (error) {
      for (const [table, dirty] of taken) table.markDirty(dirty);
      throw error;
    }
    try {
      await runLimited(tasks, PARALLEL_SHARD_WRITES);
    } catch (error) {
      for (const [table, dirty] of taken) table.markDirty(dirty);
      throw error;
    }
    return bytes;
  }

  async appendAudit(entries: AuditEntry[]): Promise<void> {
    await this.auditFile.append(entries.map((entry) => JSON.stringify(entry)));
  }

  async readAudit(visit: (entry: AuditEntry) => void): Promise<void> {
    const bad: number[] = [];
    await this.auditFile.forEach((text, lineNumber) => {
      const entry = parseAuditLine(text);
      if (entry) visit(entry);
      else bad.push(lineNumber);
    });
    if (bad.length > 0) {
      this.logger.warn({ file: this.auditFile.path, lines: bad.slice(0, 10) }, `skipped ${bad.length} unreadable audit line(s)`);
    }
  }

  rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    // An unreadable line (a crash's torn tail) has no date to keep it by: pruning drops it.
    return this.auditFile.rewrite((text) => {
      const entry = parseAuditLine(text);
      return entry !== undefined && keep(entry);
    });
  }

  appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    return this.archive.append(records);
  }

  readArchive(key: string): Promise<ConversationRecord | undefined> {
    return this.archive.find(key);
  }

  compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    return this.archive.compact(isArchived);
  }

  release(): Promise<void> {
    return this.lock.release();
  }

  private async load(now: number): Promise<{ state: HotState; migrated: boolean }> {
    const path = join(this.dataDir, STORE_FILE);
    let text: string | null;
    try {
      text = await this.core.read();
    } catch (error) {
      throw new StoreError('io', `Cannot read the store file ${path}: ${describeCause(error)}.`, { cause: error });
    }
    const decoded = text === null ? undefined : decodeCoreFile(text, path, now);
    const state = decoded?.state ?? emptyHotState(now);
    await loadShards(join(this.dataDir, 'conversations'), state.conversations, decodeConversationLine);
    await loadShards(join(this.dataDir, 'seen'), state.seen, decodeSeenLine);
    await loadShards(join(this.dataDir, 'outbox'), state.outbox, decodeEffectLine);
    if (decoded) moveInline(state, decoded.inline);
    // A crash between the core write and the shard writes can leave an inbox entry whose id is not yet in `seen`.
    for (const mention of state.inbox) if (!state.seen.has(mention.id)) state.seen.set(mention.id, now);
    indexPendingEffects(state);
    const migrated = decoded !== undefined && decoded.fromVersion < CURRENT_SCHEMA_VERSION;
    if (migrated) await this.backUp(path, decoded.fromVersion);
    return { state, migrated };
  }

  /** Keeps the pre-migration file: the next write replaces it with the new layout. */
  private async backUp(path: string, fromVersion: number): Promise<void> {
    const backup = `${path}.v${fromVersion}.bak`;
    try {
      await copyFile(path, backup, constants.COPYFILE_EXCL);
      await makePrivate(backup);
    } catch (error) {
      if (!isCode(error, 'EEXIST')) {
        throw new StoreError('io', `Cannot back up ${path} before migrating it: ${describeCause(error)}. The file was left unchanged.`, {
          cause: error,
        });
      }
    }
    this.logger.info({ file: path, backup, fromVersion, toVersion: CURRENT_SCHEMA_VERSION }, 'store file migrated');
  }

  private shardFile(table: string, index: number): TextFile {
    const name = join(table, shardFileName(index));
    let file = this.shardFiles.get(name);
    if (!file) {
      file = new TextFile(join(this.dataDir, name));
      this.shardFiles.set(name, file);
    }
    return file;
  }

  private async writeText(file: TextFile, name: string, text: string): Promise<void> {
    try {
      await file.write(text);
      // lowdb creates a fresh temp file per write with the umask's mode: set ours after the rename.
      await makePrivate(join(this.dataDir, name));
    } catch (error) {
      throw new StoreError('io', `Cannot write ${join(this.dataDir, name)}: ${describeCause(error)}.`, { cause: error });
    }
  }
}

const PARALLEL_SHARD_WRITES = 8;

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

function moveInline(state: HotState, inline: InlineCollections): void {
  for (const record of inline.conversations) state.conversations.set(record.key, entryOf(record));
  for (const [id, at] of Object.entries(inline.seen)) state.seen.set(id, at);
  for (const [key, effect] of Object.entries(inline.outbox)) state.outbox.set(key, effect);
}

function parseAuditLine(text: string): AuditEntry | undefined {
  try {
    const result = auditEntrySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
