import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { auditEntrySchema } from '../records.js';
import { applyChanges, applyCore, applyShard, finishLegacy, jsonOf, legacyProblem } from '../sql-store/legacy-rows.js';
import { sqliteDriver } from '../sql-store/sql-driver.js';
import { SqlSession } from '../sql-store/sql-session.js';
import type { ResolvedStoreOptions, StoreLogger } from '../store-options.js';
import { SQLITE_FILE, openDatabase } from './open-sqlite-store.js';

/** Where the journal store's files are kept after the import, untouched: a backup, removed by hand. */
export const JOURNAL_BACKUP_DIR = 'journal-store-backup';
const STORE_FILE = 'store.json';

/** The journal store's files and folders, moved into the backup after the import (`store.lock`: its lock). */
const OLD_FILES =
  /^(\.?store\.json.*|journal-\d+\.jsonl|debug-sync-record\.json.*|conversations|seen|outbox|archive|audit\.jsonl|store\.lock)$/;

/**
 * Imports a data directory the journal store (release 0.1) wrote into a new bridge.db, once: nothing is done when
 * bridge.db exists or there is no `store.json`. The caller holds the directory's lock. The old files are only read;
 * the database is built beside under another name, in one transaction, and renamed into place only when whole, so
 * a failed or interrupted import leaves the old files as they were and the next start imports again. The old files
 * are then moved into `journal-store-backup/`. Resolves true when it imported.
 */
export async function importJournalDir(dir: string, options: ResolvedStoreOptions): Promise<boolean> {
  if (existsSync(join(dir, SQLITE_FILE)) || !existsSync(join(dir, STORE_FILE))) return false;
  const partial = join(dir, `${SQLITE_FILE}.import`);
  await rm(partial, { force: true });
  const session = new SqlSession(sqliteDriver(await openDatabase(partial)), 0, options.logger);
  try {
    await session.run(() => writeJournalDir(session, dir, options.clock(), options.logger));
    await session.flush();
  } catch (error) {
    await session.driver.close();
    await rm(partial, { force: true });
    throw error;
  }
  await session.driver.close();
  await rename(partial, join(dir, SQLITE_FILE));
  const backup = join(dir, JOURNAL_BACKUP_DIR);
  await mkdir(backup, { recursive: true, mode: 0o700 });
  for (const name of await readdir(dir)) {
    if (OLD_FILES.test(name)) await rename(join(dir, name), join(backup, name));
  }
  return true;
}

/**
 * The snapshot (the shard files `conversations/`, `seen/`, `outbox/` then `store.json`), the journal records after
 * the snapshot's `journalSeq` in order, the audit log and the archive. A torn last line of a journal file (a crash
 * during its append, never acknowledged) is left out; any other line that cannot be read refuses the import,
 * naming the file and line, never quoting it.
 */
async function writeJournalDir(db: SqlSession, dir: string, now: number, logger: StoreLogger): Promise<void> {
  const read = (name: string) => readFile(join(dir, name), 'utf8');
  const where = (name: string) => `The old store file ${join(dir, name)}`;
  for (const kind of ['conversations', 'seen', 'outbox']) {
    for (const file of await filesIn(join(dir, kind), /\.jsonl$/))
      await applyShard(db, kind, await read(join(kind, file)), where(join(kind, file)));
  }
  const core = await applyCore(db, await read(STORE_FILE), where(STORE_FILE), now);
  // Named journal-<first record number, 12 digits>.jsonl: in order by name.
  for (const file of await filesIn(dir, /^journal-\d{12}\.jsonl$/)) {
    const all = lines(await read(file));
    for (const [index, line] of all) {
      const record = jsonOf(line) as { n?: unknown } | null | undefined;
      if (record === undefined && index === all.at(-1)![0]) break; // torn by a crash during its append: never acknowledged
      if (record === undefined) throw legacyProblem('corrupt', `${where(file)} line ${index + 1}`, 'is not valid JSON');
      if (typeof record?.n !== 'number' || record.n > core.journalSeq) await applyChanges(db, record, `${where(file)} line ${index + 1}`);
    }
  }
  await finishLegacy(db, core.version, now);
  // The audit log is a record, not state: a line that cannot be read (a torn tail) is skipped and counted.
  let bad = 0;
  for (const [, line] of lines(existsSync(join(dir, 'audit.jsonl')) ? await read('audit.jsonl') : '')) {
    const entry = auditEntrySchema.safeParse(jsonOf(line)).data;
    if (entry) await db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(entry)]);
    else bad += 1;
  }
  if (bad > 0) logger.warn({ file: join(dir, 'audit.jsonl') }, `skipped ${bad} unreadable audit line(s) of the old data directory`);
  // The archive: the last copy of each conversation still marked archived (a key's copies are in one file, oldest
  // first; a torn line, from a crash during an append, was still in the hot set).
  const latest = new Map<string, string>();
  for (const file of await filesIn(join(dir, 'archive'), /\.jsonl$/)) {
    for (const [, line] of lines(await read(join('archive', file)))) {
      const key = (jsonOf(line) as { key?: unknown } | null | undefined)?.key;
      if (typeof key === 'string') latest.set(key, line);
    }
  }
  for (const [key, json] of latest) {
    await db.write(
      'INSERT INTO bridge_archive (key, body) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM bridge_conversations WHERE key = ? AND archived_at IS NOT NULL)',
      [key, json, key],
    );
  }
}

/** The non-empty lines of a file with their index (line number - 1). */
function lines(text: string): Array<[number, string]> {
  return [...text.split('\n').entries()].filter(([, line]) => line.length > 0);
}

/** The names in `dir` that match, in order; none when `dir` does not exist. */
async function filesIn(dir: string, pattern: RegExp): Promise<string[]> {
  const names = await readdir(dir).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  });
  return names.filter((name) => pattern.test(name)).sort();
}
