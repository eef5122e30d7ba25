import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { ArchiveShards } from './archive-shards.js';
import { decodeCoreFile } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, coreFileText, emptyHotState } from './hot-state.js';
import type { HotState } from './hot-state.js';
import { JsonLinesFile } from './jsonl-file.js';
import { loadConversationShards, shardFileName } from './load-conversation-shards.js';
import { acquireLock, isCode } from './lock-file.js';
import type { LockHandle } from './lock-file.js';
import type { Persistence } from './persistence.js';
import { auditEntrySchema } from './records.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { entryOf } from './state/conversations.js';
import { StoreError, describeCause } from './store-error.js';
import type { ResolvedStoreOptions, StoreLogger } from './store-options.js';

export const STORE_FILE = 'store.json';
export const CONVERSATIONS_DIR = 'conversations';
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
  private readonly shardFiles = new Map<number, TextFile>();

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
  static async open(dataDir: string, options: ResolvedStoreOptions): Promise<{ persistence: FilePersistence; state: HotState; migrated: boolean }> {
    for (const dir of [dataDir, join(dataDir, CONVERSATIONS_DIR), join(dataDir, ARCHIVE_DIR)]) {
      await mkdir(dir, { recursive: true }).catch((error: unknown) => {
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
    const coreText = coreFileText(state);
    let bytes = Buffer.byteLength(coreText);
    await this.writeText(this.core, STORE_FILE, coreText);
    // The core goes first: an archived key recorded there while its shard still holds it reads as hot.
    const dirty = state.conversations.takeDirty();
    try {
      for (const index of dirty) {
        const text = state.conversations.shardText(index);
        bytes += Buffer.byteLength(text);
        await this.writeText(this.shardFile(index), join(CONVERSATIONS_DIR, shardFileName(index)), text);
      }
    } catch (error) {
      state.conversations.markDirty(dirty);
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
    await loadConversationShards(join(this.dataDir, CONVERSATIONS_DIR), state.conversations);
    for (const record of decoded?.inlineConversations ?? []) state.conversations.set(record.key, entryOf(record));
    // A crash between the core write and the shard writes can leave a key both hot and archived: hot wins.
    for (const key of [...state.archived.keys()]) if (state.conversations.has(key)) state.archived.delete(key);
    const migrated = decoded !== undefined && decoded.fromVersion < CURRENT_SCHEMA_VERSION;
    if (migrated) await this.backUp(path, decoded.fromVersion);
    return { state, migrated };
  }

  /** Keeps the pre-migration file: the next write replaces it with the new layout. */
  private async backUp(path: string, fromVersion: number): Promise<void> {
    const backup = `${path}.v${fromVersion}.bak`;
    try {
      await copyFile(path, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      if (!isCode(error, 'EEXIST')) {
        throw new StoreError('io', `Cannot back up ${path} before migrating it: ${describeCause(error)}. The file was left unchanged.`, { cause: error });
      }
    }
    this.logger.info({ file: path, backup, fromVersion, toVersion: CURRENT_SCHEMA_VERSION }, 'store file migrated');
  }

  private shardFile(index: number): TextFile {
    let file = this.shardFiles.get(index);
    if (!file) {
      file = new TextFile(join(this.dataDir, CONVERSATIONS_DIR, shardFileName(index)));
      this.shardFiles.set(index, file);
    }
    return file;
  }

  private async writeText(file: TextFile, name: string, text: string): Promise<void> {
    try {
      await file.write(text);
    } catch (error) {
      throw new StoreError('io', `Cannot write ${join(this.dataDir, name)}: ${describeCause(error)}.`, { cause: error });
    }
  }
}

function parseAuditLine(text: string): AuditEntry | undefined {
  try {
    const result = auditEntrySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

