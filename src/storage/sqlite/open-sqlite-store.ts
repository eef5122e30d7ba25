import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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
const LOCK_FILE = 'bridge.lock';
/** Release 0.1's lock file: JSON with the holder's pid. */
const OLD_LOCK_FILE = 'store.lock';
/** Marks the `store.lock` this release writes, which it never takes for 0.1's. */
const OLD_LOCK_NOTE = 'written by engage-bridge 0.2 or later, locked by bridge.lock: it keeps release 0.1 out';
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
  // Customer data is for the bridge's own user only: modes given at creation are cut by the umask, so they are set
  // again explicitly (chmod ignores it), on a directory an older version left 0755 too.
  await mkdir(dir, { recursive: true, mode: 0o700 })
    .then(() => chmod(dir, 0o700))
    .catch((error: unknown) => {
      throw new StoreError('io', `Cannot create the data directory ${dir}: ${describeCause(error)}.`, { cause: error });
    });
  const lock = await lockDataDir(dir);
  const file = join(dir, SQLITE_FILE);
  let db: DatabaseSync | undefined;
  let unguard: (() => Promise<void>) | undefined;
  try {
    // A directory the journal store (release 0.1) wrote is imported once, under the same lock.
    if (await importJournalDir(dir, resolved)) resolved.logger.info({ dataDir: dir }, 'imported the journal store into bridge.db');
    unguard = await keepReleaseOneOut(dir);
    db = await openDatabase(file);
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) await chmod(file + suffix, 0o600);
    return await openSqlStore(
      sqliteDriver(db, async () => {
        await unguard?.();
        lock.close();
      }),
      resolved,
      'the SQLite store',
    );
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing after a failed open: the open's error is the one to report.
    }
    await unguard?.();
    lock.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError('io', `Cannot open ${file}: ${describeCause(error)}.`, { cause: error });
  }
}

/**
 * One process per data directory: `bridge.lock`, an empty SQLite database held with an exclusive lock until the store
 * closes. SQLite takes it as a POSIX advisory lock, which the kernel drops when the process dies (`kill -9` too), and
 * refuses it to a second connection of the same process as well; `bridge.db` stays open to an operator's `sqlite3`.
 * Nothing else in the process may open `bridge.lock`: closing any descriptor of a file drops the process's locks on it.
 */
async function lockDataDir(dir: string): Promise<DatabaseSync> {
  // Release 0.1 locked the directory with `store.lock` (JSON with its pid): refused while that process lives.
  const old = await readFile(join(dir, OLD_LOCK_FILE), 'utf8').catch(() => '');
  const oldPid = old.includes(OLD_LOCK_NOTE) ? 0 : Number(/"pid":(\d+)/.exec(old)?.[1]);
  if (oldPid > 0 && oldPid !== process.pid && isAlive(oldPid)) {
    throw new StoreError(
      'locked',
      `The data directory ${dir} is in use by engage-bridge 0.1 (process ${oldPid}, store.lock). Stop it first; if none runs on this directory, delete store.lock.`,
    );
  }
  const file = join(dir, LOCK_FILE);
  const lock = new DatabaseSync(file);
  try {
    await chmod(file, 0o600);
    lock.exec('PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT');
    return lock;
  } catch (error) {
    lock.close();
    if ((error as { errcode?: unknown }).errcode !== 5 /* SQLITE_BUSY: another connection holds it */) {
      throw new StoreError('io', `Cannot lock the data directory ${dir} (${file}): ${describeCause(error)}.`, { cause: error });
    }
    const { ino } = await stat(file);
    const locks = await readFile('/proc/locks', 'utf8').catch(() => ''); // Linux: who holds it
    const pid = new RegExp(`POSIX +ADVISORY +WRITE +(\\d+) +\\S+:${ino} `).exec(locks)?.[1];
    throw new StoreError(
      'locked',
      `The data directory ${dir} is in use by ${pid ? `process ${pid}` : 'another process'} (it holds ${file}). Stop that process or choose another BRIDGE_DATA_DIR.`,
    );
  }
}

/**
 * Release 0.1 knows only its own `store.lock`: without one it would start an empty journal store beside this one and
 * answer every customer again. While the store is open, `store.lock` names this process the way 0.1 reads it, so 0.1
 * refuses the directory (naming it); the file goes when the store closes. One left by a `kill -9` is ours (its note
 * says so) and is replaced, whatever process its pid names now; one 0.1 writes meanwhile stops this open.
 */
async function keepReleaseOneOut(dir: string): Promise<() => Promise<void>> {
  const file = join(dir, OLD_LOCK_FILE);
  const text = `${JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), note: OLD_LOCK_NOTE })}\n`;
  // Here a 0.1 lock is one whose process is gone (lockDataDir), moved to the backup if imported.
  await rm(file, { force: true });
  await writeFile(file, text, { flag: 'wx', mode: 0o600 }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    throw new StoreError('locked', `engage-bridge 0.1 has just taken the data directory ${dir} (${file}). Stop it first.`);
  });
  return async () => {
    if ((await readFile(file, 'utf8').catch(() => '')) === text) await rm(file, { force: true });
  };
}

/** Signal 0 probes without touching the process: EPERM still means it exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
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
