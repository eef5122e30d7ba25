import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ARCHIVE_DIR, AUDIT_FILE, FilePersistence } from '../file-persistence.js';
import { shardedTables } from '../hot-state.js';
import type { AuditEntry } from '../records.js';
import { STORE_FILE } from '../snapshot-writer.js';
import { isCold } from '../state/conversations.js';
import type { ResolvedStoreOptions } from '../store-options.js';
import { SQLITE_FILE, openDatabase } from './open-sqlite-store.js';
import { SqlitePersistence } from './sqlite-persistence.js';

/** Where the journal store's files are kept after the import, untouched: a backup, removed by hand. */
export const JOURNAL_BACKUP_DIR = 'journal-store-backup';

/**
 * Imports a data directory the journal store wrote (store.json, journal, shards, audit.jsonl, archive) into a new
 * bridge.db, once: nothing is done when bridge.db exists or there is no journal store. The old store's own reader
 * loads it (with its checks and its lock); the database is built beside under another name and renamed into place
 * only when whole, so a crash during the import leaves the old files as they were and the next start imports again.
 * The old files are then moved into `journal-store-backup/`. Resolves true when it imported.
 */
export async function importJournalDir(dir: string, options: ResolvedStoreOptions): Promise<boolean> {
  if (existsSync(join(dir, SQLITE_FILE)) || !existsSync(join(dir, STORE_FILE))) return false;
  const { persistence, state } = await FilePersistence.open(dir, options);
  const audit: AuditEntry[] = [];
  const archive: Array<{ key: string; json: string }> = [];
  try {
    // Cold conversations live in the old store's files: the SQL layout keeps every hot one in its row.
    const cold: string[] = [];
    state.conversations.forEach((slot, key) => {
      if (isCold(slot)) cold.push(key);
    });
    for (const key of cold) {
      const slot = state.conversations.get(key);
      if (!isCold(slot)) continue;
      const json = await persistence.readCold(key, slot);
      if (json === undefined) throw new Error(`conversation ${key} could not be read from the journal store`);
      state.conversations.set(key, { json, owner: slot.owner, updatedAt: slot.updatedAt });
    }
    await persistence.readAudit((entry) => audit.push(entry));
    const archived: string[] = [];
    state.conversations.forEach((slot, key) => {
      if ('archivedAt' in slot) archived.push(key);
    });
    for (const key of archived) {
      const record = await persistence.readArchive(key);
      if (record) archive.push({ key, json: JSON.stringify(record) });
    }
  } finally {
    await persistence.release();
  }
  const partial = join(dir, `${SQLITE_FILE}.import`);
  await rm(partial, { force: true });
  const db = openDatabase(partial);
  try {
    const into = new SqlitePersistence(db, options.logger, async () => {});
    for (const [, table] of shardedTables(state)) table.markDirty(Array.from({ length: table.shardCount }, (_, index) => index));
    await into.writeHot(state);
    await into.appendAudit(audit);
    await into.appendArchive(archive);
  } finally {
    db.close();
  }
  await rename(partial, join(dir, SQLITE_FILE));
  const backup = join(dir, JOURNAL_BACKUP_DIR);
  await mkdir(backup, { recursive: true, mode: 0o700 });
  const tables = new Set(shardedTables(state).map(([name]) => name));
  for (const name of await readdir(dir)) {
    const theirs =
      name.startsWith(STORE_FILE) ||
      (name.startsWith('journal-') && name !== JOURNAL_BACKUP_DIR) ||
      name === AUDIT_FILE ||
      name === ARCHIVE_DIR ||
      tables.has(name);
    if (theirs) await rename(join(dir, name), join(backup, name));
  }
  return true;
}
