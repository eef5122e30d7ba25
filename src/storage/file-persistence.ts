import { constants } from 'node:fs';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ArchiveShards } from './archive-shards.js';
import { decodeCoreFile } from './decode-core-file.js';
import type { InlineCollections } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, SHARDS, emptyHotState, shardedTables } from './hot-state.js';
import type { HotState } from './hot-state.js';
import { applyRecord, takeBatch } from './journal-batch.js';
import { JournalFiles } from './journal-files.js';
import { JsonLinesFile } from './jsonl-file.js';
import { keySeenByTopic } from './key-seen-by-topic.js';
import { mentionRef } from './records.js';
import { hasSeenIn } from './state/inbox.js';
import { coldConversationDecoder, decodeEffectLine, decodeSeenLine, loadShards } from './load-shards.js';
import { CONVERSATIONS_DIR, conversationShardPath, readColdLine } from './cold-conversations.js';
import { ColdShardFiles } from './cold-shard-files.js';
import { slotsFromIndex } from './shard-index.js';
import { shardOf } from './sharded-map.js';
import { acquireLock, isCode } from './lock-file.js';
import type { LockHandle } from './lock-file.js';
import type { Persistence, PersistenceCounters } from './persistence.js';
import { ensurePrivateDir, makePrivate } from './private-files.js';
import { auditEntrySchema } from './records.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { STORE_FILE, removeLeftovers, writeSnapshot } from './snapshot-writer.js';
import { entryOf } from './state/conversations.js';
import type { ColdSlot } from './state/conversations.js';
import { indexPendingEffects } from './state/outbox.js';
import { StoreError, describeCause } from './store-error.js';
import { SyncRecord } from './sync-record.js';
import type { ResolvedStoreOptions, StoreLogger } from './store-options.js';

export { STORE_FILE };
export const ARCHIVE_DIR = 'archive';
export const AUDIT_FILE = 'audit.jsonl';
export const LOCK_FILE = 'store.lock';

/** A snapshot is due once the journal behind the last one has grown this much. */
export const SNAPSHOT_AFTER_JOURNAL_BYTES = 16 * 1024 * 1024;

/**
 * The data directory. The state lives in memory; every change reaches the journal (JSON Lines, one
 * record per group commit, synced before anyone is told it is durable). Now and then a snapshot (core
 * file and shard files, see `snapshot-writer.ts`) lets the journal behind it go. The archive and the
 * audit log are append-only JSON Lines files. Crash behaviour: `README.md` in this folder.
 */
export class FilePersistence implements Persistence {
  private readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  private readonly journal: JournalFiles;
  private readonly archive: ArchiveShards;
  /** The last journal record number handed out. */
  private seq = 0;
  private readonly lastMeta = { value: '' };
  private snapshotting: Promise<void> | undefined;
  /** The store's group commit (see `Persistence.useFlush`); until told, nothing is pending outside the journal. */
  private flushAll: () => Promise<void> = () => Promise.resolve();
  /** Conversations in the journal record being written: they stay in memory until it is. */
  private journalPending = new Set<string>();
  /** Shard files kept open between cold reads. */
  private readonly coldFiles = new ColdShardFiles();

  private constructor(
    private readonly dataDir: string,
    private readonly auditFile: JsonLinesFile,
    private readonly lock: LockHandle,
    private readonly logger: StoreLogger,
    private readonly options: ResolvedStoreOptions,
    private readonly syncRecord: SyncRecord | undefined,
  ) {
    this.journal = new JournalFiles(dataDir, this.counters, syncRecord);
    this.archive = new ArchiveShards(join(dataDir, ARCHIVE_DIR), () => {
      this.counters.fsyncs += 1;
    });
  }

  /** Locks the directory, then loads (and migrates) the state; refuses files it cannot trust. */
  static async open(
    dataDir: string,
    options: ResolvedStoreOptions,
    debug: { syncRecord?: boolean } = {},
  ): Promise<{ persistence: FilePersistence; state: HotState; migrated: boolean }> {
    const dirs = [dataDir, join(dataDir, ARCHIVE_DIR), ...shardedTables(emptyHotState(0)).map(([name]) => join(dataDir, name))];
    for (const dir of dirs) {
      await ensurePrivateDir(dir).catch((error: unknown) => {
        throw new StoreError('io', `Cannot create the data directory ${dir}: ${describeCause(error)}.`, { cause: error });
      });
    }
    const lock = await acquireLock(join(dataDir, LOCK_FILE), dataDir, options.logger);
    try {
      const syncRecord = debug.syncRecord ? await SyncRecord.open(dataDir) : undefined;
      const auditFile = new JsonLinesFile(join(dataDir, AUDIT_FILE), undefined, { keepOpen: true });
      const persistence = new FilePersistence(dataDir, auditFile, lock, options.logger, options, syncRecord);
      return { persistence, ...(await persistence.load(options.clock())) };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** One group commit: the changes since the last record, appended and synced as one record. */
  async writeHot(state: HotState): Promise<number> {
    const batch = takeBatch(state, this.lastMeta);
    if (batch.body.length === 0) return 0;
    this.seq += 1;
    let bytes: number;
    this.journalPending = new Set(batch.conversationKeys);
    try {
      bytes = await this.journal.append(this.seq, batch.body);
    } catch (error) {
      batch.restore();
      throw error;
    } finally {
      this.journalPending = new Set();
    }
    if (this.journal.bytesSinceSnapshot >= SNAPSHOT_AFTER_JOURNAL_BYTES && !this.snapshotting) {
      // In the background: records go on into the next journal file meanwhile.
      this.snapshotting = this.snapshotNow(state)
        .catch((error: unknown) => {
          this.logger.error({ code: 'io', problem: describeCause(error) }, 'snapshot failed; the journal is kept and the next one retries');
        })
        .finally(() => {
          this.snapshotting = undefined;
        });
    }
    return bytes;
  }

  useFlush(flush: () => Promise<void>): void {
    this.flushAll = flush;
  }

  async snapshot(state: HotState): Promise<void> {
    await this.snapshotting;
    await this.snapshotNow(state);
  }

  stats(): PersistenceCounters {
    return { ...this.counters };
  }

  private async snapshotNow(state: HotState): Promise<void> {
    await writeSnapshot(
      this.dataDir,
      state,
      this.journal,
      () => this.seq,
      {
        coldBefore: this.options.clock() - this.options.coldAfterMinutes * 60_000,
        journalPending: (key) => this.journalPending.has(key),
        replaced: (path) => this.coldFiles.forget(path),
        journalSynced: () => this.flushAll(),
      },
      this.syncRecord,
    );
    this.counters.snapshots += 1;
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

  readCold(key: string, slot: ColdSlot): Promise<string | undefined> {
    return readColdLine(this.coldFiles, conversationShardPath(this.dataDir, key, SHARDS.conversations), key, slot);
  }

  readArchive(key: string): Promise<ConversationRecord | undefined> {
    return this.archive.find(key);
  }

  removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number> {
    return this.archive.remove(keys, options.dryRun);
  }

  compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    return this.archive.compact(isArchived);
  }

  async release(): Promise<void> {
    await this.snapshotting;
    this.coldFiles.closeAll();
    await this.auditFile.close();
    await this.journal.close();
    await this.lock.release();
  }

  /** Recovery: the snapshot, then every journal record after it. */
  private async load(now: number): Promise<{ state: HotState; migrated: boolean }> {
    const path = join(this.dataDir, STORE_FILE);
    await removeLeftovers([this.dataDir, ...shardedTables(emptyHotState(0)).map(([name]) => join(this.dataDir, name))]);
    let text: string | null;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (!isCode(error, 'ENOENT')) {
        throw new StoreError('io', `Cannot read the store file ${path}: ${describeCause(error)}.`, { cause: error });
      }
      text = null;
    }
    const decoded = text === null ? undefined : decodeCoreFile(text, path, now);
    const state = decoded?.state ?? emptyHotState(now);
    // Conversations untouched for a while stay in their shard file: memory holds where, not what.
    const coldBefore = now - this.options.coldAfterMinutes * 60_000;
    await loadShards(
      join(this.dataDir, CONVERSATIONS_DIR),
      state.conversations,
      coldConversationDecoder(coldBefore),
      (path, buffer, index) => slotsFromIndex(path, buffer, { coldBefore, home: (key) => shardOf(key, SHARDS.conversations) === index }),
    );
    await loadShards(join(this.dataDir, 'seen'), state.seen, decodeSeenLine);
    await loadShards(join(this.dataDir, 'outbox'), state.outbox, decodeEffectLine);
    if (decoded) moveInline(state, decoded.inline);
    const covered = decoded?.journalSeq ?? 0;
    const last = await this.journal.replay((record) => {
      if (record.n > covered) applyRecord(state, record);
    });
    this.seq = Math.max(covered, last);
    if (decoded && decoded.fromVersion < 2) keySeenByTopic(state);
    // A seen id always goes with its inbox entry; an older layout could lose the seen shard alone.
    for (const mention of state.inbox)
      if (!hasSeenIn(state, mention.topicId, mention.id)) state.seen.set(mentionRef(mention.topicId, mention.id), now);
    // What was just loaded is not a change for the journal (the shards stay dirty for the next snapshot).
    for (const [, table] of shardedTables(state)) table.takeChanged();
    state.cursors.takeChanged();
    state.escalations.takeChanged();
    state.inboxChanges.clear();
    this.lastMeta.value = JSON.stringify(state.meta);
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
