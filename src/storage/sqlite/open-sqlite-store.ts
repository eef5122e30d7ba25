import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { acquireLock } from '../lock-file.js';
import { type SchemaQuery, applySchema } from '../sql-schema.js';
import { openSqlStore } from '../sql-store/open-sql-store.js';
import { sqliteDriver } from '../sql-store/sql-driver.js';
import { SqlSession } from '../sql-store/sql-session.js';
import { SqlStore } from '../sql-store/sql-store.js';
import { StoreError, describeCause } from '../store-error.js';
import { type StoreOptions, resolveStoreOptions } from '../store-options.js';
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
  // Group commit needs no spacing: callers arriving during a commit share the next one.
  const resolved = resolveStoreOptions(options, DEFAULT_WRITE_INTERVAL_MS);
  const dir = options.dataDir;
  // Customer data is for the bridge's own user only: modes given at creation are cut by the umask, so they are set
  // again explicitly (chmod ignores it), on a directory an older version left 0755 too.
  await mkdir(dir, { recursive: true, mode: 0o700 })
    .then(() => chmod(dir, 0o700))
    .catch((error: unknown) => {
      throw new StoreError('io', `Cannot create the data directory ${dir}: ${describeCause(error)}.`, { cause: error });
    });
  const lock = await acquireLock(join(dir, LOCK_FILE), dir, resolved.logger);
  const file = join(dir, SQLITE_FILE);
  let db: DatabaseSync | undefined;
  try {
    // A directory the journal store (release 0.1) wrote is imported once, under the same lock.
    if (await importJournalDir(dir, resolved)) resolved.logger.info({ dataDir: dir }, 'imported the journal store into bridge.db');
    db = await openDatabase(file);
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) await chmod(file + suffix, 0o600);
    return await openSqlStore(
      sqliteDriver(db, () => lock.release()),
      resolved,
      'the SQLite store',
    );
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
export async function openDatabase(file: string): Promise<DatabaseSync> {
  const db = new DatabaseSync(file);
  try {
    configure(db);
    await applySchema(schemaQuery(db), 'sqlite');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The same store on an in-memory SQLite database: for tests and the demo. Nothing survives the process. */
export function createMemoryStore(options: StoreOptions = {}): Store {
  const resolved = resolveStoreOptions(options, 0);
  const db = new DatabaseSync(':memory:');
  configure(db);
  const session = new SqlSession(
    sqliteDriver(db, async () => {}, false),
    0,
    resolved.logger,
  );
  // The first task on the connection: every call of the store runs after it.
  void session.run(() => applySchema(schemaQuery(db), 'sqlite'));
  const store = new SqlStore(session, resolved);
  store.ready.catch((error: unknown) => resolved.logger.error({ err: String(error) }, 'the memory store could not start'));
  return store;
}

function configure(db: DatabaseSync): void {
  // 1 KB pages (set before the first table; an existing file keeps its own): a commit writes every page it
  // touched, one per table and index, so smaller pages write less per answered message (src/storage/README.md).
  db.exec('PRAGMA page_size = 1024');
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000');
  // A checkpoint copies each page the WAL holds into bridge.db once, however many commits wrote it: every 10,000
  // pages (10 MB of WAL at 1 KB pages) rather than SQLite's 1,000, so a page written often is copied less often.
  db.exec('PRAGMA wal_autocheckpoint = 10000');
}

function schemaQuery(db: DatabaseSync): SchemaQuery {
  return async (sql) => {
    if (sql.startsWith('SELECT')) return db.prepare(sql).all() as Array<Record<string, unknown>>;
    db.exec(sql);
    return [];
  };
}
