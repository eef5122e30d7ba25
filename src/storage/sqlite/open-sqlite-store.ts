import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { acquireLock } from '../lock-file.js';
import { ensurePrivateDir, makePrivate } from '../private-files.js';
import { SCHEMA_TABLE_SQL, newerSchemaMessage, schemaSteps } from '../sql-schema.js';
import { sqliteDriver } from '../sql-store/sql-driver.js';
import { openSqlStore } from '../sql-store/open-sql-store.js';
import { StoreError, describeCause } from '../store-error.js';
import { resolveStoreOptions } from '../store-options.js';
import type { StoreOptions } from '../store-options.js';
import type { Store } from '../store.js';
import { importJournalDir } from './import-journal-dir.js';

export interface SqliteStoreOptions extends StoreOptions {
  /** `BRIDGE_DATA_DIR`: created if missing (0700); one process at a time. */
  dataDir: string;
}

/** The database file in the data directory. */
export const SQLITE_FILE = 'bridge.db';
/** The same lock file as the journal store's: an old and a new release never share a directory. */
const LOCK_FILE = 'store.lock';
// The commit window (BRIDGE_COMMIT_WINDOW_MS): the writes of every conversation in the 20 ms after a batch's first
// write share its commit, one WAL sync and the pages they have in common (measured: src/storage/README.md).
const DEFAULT_WRITE_INTERVAL_MS = 20;

/**
 * Opens the store in `dataDir/bridge.db`: WAL, `synchronous=FULL`, foreign keys on, one connection owned by the
 * store, the directory locked to this process. Rejects with a `StoreError`: `locked` when another live process
 * holds the directory, `schema` when the database is newer than this release, `corrupt` or `io`.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const resolved = resolveStoreOptions(options, DEFAULT_WRITE_INTERVAL_MS);
  const dir = options.dataDir;
  await ensurePrivateDir(dir).catch((error: unknown) => {
    throw new StoreError('io', `Cannot create the data directory ${dir}: ${describeCause(error)}.`, { cause: error });
  });
  const lock = await acquireLock(join(dir, LOCK_FILE), dir, resolved.logger);
  const file = join(dir, SQLITE_FILE);
  let db: DatabaseSync | undefined;
  try {
    // A directory the journal store (release 0.1) wrote is imported once, under the same lock.
    if (await importJournalDir(dir, resolved)) resolved.logger.info({ dataDir: dir }, 'imported the journal store into bridge.db');
    db = openDatabase(file);
    // Customer data: the database and its WAL and shared-memory files are the bridge user's only.
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) await makePrivate(file + suffix);
    const opened = db;
    const store = await openSqlStore(
      sqliteDriver(opened, () => lock.release()),
      resolved,
      'the SQLite store',
    );
    return store;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing after a failed open: the open's error is the one to report.
    }
    await lock.release();
    if (error instanceof StoreError) throw error;
    throw new StoreError('io', `Cannot open ${file}: ${describeCause(error)}.`, { cause: error });
  }
}

/** Opens (or creates) the database file with the store's settings and the shared schema applied. */
export function openDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  try {
    // 1 KB pages (set before the first table; an existing file keeps its own): a commit writes every page it
    // touched, one per table and index, so smaller pages write less per answered message (src/storage/README.md).
    db.exec('PRAGMA page_size = 1024');
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000');
    // A checkpoint copies each page the WAL holds into bridge.db once, however many commits wrote it: every 10,000
    // pages (10 MB of WAL at 1 KB pages) rather than SQLite's 1,000, so a page written often is copied less often.
    db.exec('PRAGMA wal_autocheckpoint = 10000');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Applies the shared schema's steps this database lacks, in one transaction; refuses a newer database. */
function migrate(db: DatabaseSync): void {
  const steps = schemaSteps('sqlite');
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(SCHEMA_TABLE_SQL);
    const have = new Set((db.prepare('SELECT version FROM bridge_schema').all() as Array<{ version: number }>).map((r) => r.version));
    const newest = Math.max(0, ...have);
    const known = Math.max(...steps.map((step) => step.version));
    if (newest > known) throw new StoreError('schema', `Cannot open the SQLite store: ${newerSchemaMessage(newest, known)}.`);
    for (const step of steps) {
      if (have.has(step.version)) continue;
      db.exec(step.sql);
      db.prepare('INSERT INTO bridge_schema (version) VALUES (?)').run(step.version);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
