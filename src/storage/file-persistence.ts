import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFile } from 'lowdb/node';
import { decodeHotFile } from './decode-hot-file.js';
import { CURRENT_SCHEMA_VERSION, emptyHotState } from './hot-state.js';
import type { ArchiveRef, HotState } from './hot-state.js';
import { JsonLinesFile } from './jsonl-file.js';
import { acquireLock, isCode } from './lock-file.js';
import type { LockHandle } from './lock-file.js';
import type { Persistence } from './persistence.js';
import { auditEntrySchema, conversationSchema } from './records.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { StoreError, describeCause } from './store-error.js';
import type { ResolvedStoreOptions, StoreLogger } from './store-options.js';

export const STORE_FILE = 'store.json';
export const AUDIT_FILE = 'audit.jsonl';
export const ARCHIVE_FILE = 'archive.jsonl';
export const LOCK_FILE = 'store.lock';

/**
 * The data directory: the hot state as one compact JSON file replaced atomically by lowdb (temp file
 * then rename, so a killed process never leaves half a file), and two append-only JSON Lines files.
 */
export class FilePersistence implements Persistence {
  private lastBytes = 0;
  private readonly hot: DataFile<unknown>;

  private constructor(
    private readonly hotPath: string,
    private readonly auditFile: JsonLinesFile,
    private readonly archiveFile: JsonLinesFile,
    private readonly lock: LockHandle,
    private readonly logger: StoreLogger,
  ) {
    this.hot = new DataFile<unknown>(hotPath, {
      parse: (text) => text,
      stringify: (data) => {
        const text = JSON.stringify(data);
        this.lastBytes = Buffer.byteLength(text);
        return text;
      },
    });
  }

  /** Locks the directory, then loads (and migrates) the hot file; refuses a file it cannot trust. */
  static async open(
    dataDir: string,
    options: ResolvedStoreOptions,
  ): Promise<{ persistence: FilePersistence; state: HotState; migrated: boolean }> {
    await mkdir(dataDir, { recursive: true }).catch((error: unknown) => {
      throw new StoreError('io', `Cannot create the data directory ${dataDir}: ${describeCause(error)}.`, { cause: error });
    });
    const lock = await acquireLock(join(dataDir, LOCK_FILE), dataDir, options.logger);
    try {
      const hotPath = join(dataDir, STORE_FILE);
      const persistence = new FilePersistence(
        hotPath,
        new JsonLinesFile(join(dataDir, AUDIT_FILE)),
        new JsonLinesFile(join(dataDir, ARCHIVE_FILE)),
        lock,
        options.logger,
      );
      const { state, migrated } = await persistence.load(options.clock());
      return { persistence, state, migrated };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async writeHot(state: HotState): Promise<number> {
    try {
      await this.hot.write(state);
    } catch (error) {
      throw new StoreError('io', `Cannot write the store file ${this.hotPath}: ${describeCause(error)}.`, { cause: error });
    }
    return this.lastBytes;
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

  async rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    // An unreadable line (a crash's torn tail) has no date to keep it by: pruning drops it.
    return this.auditFile.rewrite((text) => {
      const entry = parseAuditLine(text);
      return entry !== undefined && keep(entry);
    });
  }

  async appendArchive(records: ConversationRecord[], at: number): Promise<ArchiveRef[]> {
    const spans = await this.archiveFile.append(records.map((record) => JSON.stringify(record)));
    return spans.map((span) => ({ at, ...span }));
  }

  async readArchive(ref: ArchiveRef): Promise<ConversationRecord> {
    const text = await this.archiveFile.readAt(ref);
    try {
      return conversationSchema.parse(JSON.parse(text));
    } catch {
      throw new StoreError(
        'corrupt',
        `The archive file ${this.archiveFile.path} holds no valid conversation at byte ${ref.offset}; that archived conversation cannot be read.`,
      );
    }
  }

  release(): Promise<void> {
    return this.lock.release();
  }

  private async load(now: number): Promise<{ state: HotState; migrated: boolean }> {
    let text: unknown;
    try {
      text = await this.hot.read();
    } catch (error) {
      throw new StoreError('io', `Cannot read the store file ${this.hotPath}: ${describeCause(error)}.`, { cause: error });
    }
    if (typeof text !== 'string') return { state: emptyHotState(now), migrated: false };
    const { state, fromVersion } = decodeHotFile(text, this.hotPath, now);
    const migrated = fromVersion < CURRENT_SCHEMA_VERSION;
    if (migrated) await this.backUp(fromVersion);
    return { state, migrated };
  }

  /** Keeps the pre-migration file: the next write replaces it with the new layout. */
  private async backUp(fromVersion: number): Promise<void> {
    const backup = `${this.hotPath}.v${fromVersion}.bak`;
    try {
      await copyFile(this.hotPath, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      if (!isCode(error, 'EEXIST')) {
        throw new StoreError('io', `Cannot back up ${this.hotPath} before migrating it: ${describeCause(error)}. The file was left unchanged.`, { cause: error });
      }
    }
    this.logger.info({ file: this.hotPath, backup, fromVersion, toVersion: CURRENT_SCHEMA_VERSION }, 'store file migrated');
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
