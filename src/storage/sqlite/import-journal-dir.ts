import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedStoreOptions } from '../store-options.js';
import { SQLITE_FILE, openDatabase } from './open-sqlite-store.js';
import { ARCHIVE_DIR, AUDIT_FILE, STORE_FILE, readJournalDir } from './read-journal-dir.js';
import { sqliteDriver } from '../sql-store/sql-driver.js';
import { SqlSession } from '../sql-store/sql-session.js';
import { writeLegacyState } from '../sql-store/write-legacy-state.js';

/** Where the journal store's files are kept after the import, untouched: a backup, removed by hand. */
export const JOURNAL_BACKUP_DIR = 'journal-store-backup';

/** The journal store's files and folders, moved into the backup after the import. */
const OLD_FILES = [/^store\.json/, /^\.store\.json/, /^journal-\d+\.jsonl/, /^debug-sync-record\.json/, /^(conversations|seen|outbox)$/];

/**
 * Imports a data directory the journal store (release 0.1) wrote into a new bridge.db, once: nothing is done when
 * bridge.db exists or there is no `store.json`. The caller holds the directory's lock. The old files are only read
 * (`read-journal-dir.ts`); the database is built beside under another name and renamed into place only when whole,
 * so a crash during the import leaves the old files as they were and the next start imports again. The old files
 * are then moved into `journal-store-backup/`. Resolves true when it imported.
 */
export async function importJournalDir(dir: string, options: ResolvedStoreOptions): Promise<boolean> {
  if (existsSync(join(dir, SQLITE_FILE)) || !existsSync(join(dir, STORE_FILE))) return false;
  const { state, audit, archive } = await readJournalDir(dir, options.clock(), options.logger);
  const partial = join(dir, `${SQLITE_FILE}.import`);
  await rm(partial, { force: true });
  const session = new SqlSession(sqliteDriver(openDatabase(partial)), 0, options.logger);
  try {
    await session.run(() => writeLegacyState(session, state, { audit, archive }));
    await session.flush();
  } finally {
    await session.driver.close();
  }
  await rename(partial, join(dir, SQLITE_FILE));
  const backup = join(dir, JOURNAL_BACKUP_DIR);
  await mkdir(backup, { recursive: true, mode: 0o700 });
  for (const name of await readdir(dir)) {
    if (name === AUDIT_FILE || name === ARCHIVE_DIR || OLD_FILES.some((pattern) => pattern.test(name))) {
      await rename(join(dir, name), join(backup, name));
    }
  }
  return true;
}
