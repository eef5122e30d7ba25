import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { auditEntrySchema } from '../records.js';
import {
  applyLegacyRecord,
  coreRecord,
  finishLegacy,
  journalRecordSchema,
  legacyProblem,
  parseLegacy,
  parseLegacyJson,
  shardRecord,
} from '../sql-store/legacy-rows.js';
import { sqliteDriver } from '../sql-store/sql-driver.js';
import { SqlSession } from '../sql-store/sql-session.js';
import { StoreError, describeCause } from '../store-error.js';
import type { ResolvedStoreOptions, StoreLogger } from '../store-options.js';
import { SQLITE_FILE, openDatabase } from './open-sqlite-store.js';

/** Where the journal store's files are kept after the import, untouched: a backup, removed by hand. */
export const JOURNAL_BACKUP_DIR = 'journal-store-backup';
const STORE_FILE = 'store.json';
const JOURNAL_FILE = /^journal-(\d{12})\.jsonl$/;

/** The journal store's files and folders, moved into the backup after the import. */
const OLD_FILES = [
  /^store\.json/,
  /^\.store\.json/,
  /^journal-\d+\.jsonl/,
  /^debug-sync-record\.json/,
  /^(conversations|seen|outbox|archive)$/,
  /^store\.lock$/,
  /^audit\.jsonl$/,
];

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
    if (OLD_FILES.some((pattern) => pattern.test(name))) await rename(join(dir, name), join(backup, name));
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
  const coreFile = `The old store file ${join(dir, STORE_FILE)}`;
  const core = coreRecord(await readText(join(dir, STORE_FILE)), coreFile, now);
  for (const kind of ['conversations', 'seen', 'outbox']) {
    for (const file of await filesIn(join(dir, kind), /\.jsonl$/)) {
      const path = join(dir, kind, file);
      for (const [index, line] of lines(await readText(path))) {
        const where = `The old store file ${path} line ${index + 1}`;
        await applyLegacyRecord(db, shardRecord(kind, parseLegacyJson(line, where), where), where);
      }
    }
  }
  await applyLegacyRecord(db, core.record, coreFile);
  const journals = (await filesIn(dir, JOURNAL_FILE)).sort((a, b) => Number(JOURNAL_FILE.exec(a)![1]) - Number(JOURNAL_FILE.exec(b)![1]));
  let last = 0;
  for (const file of journals) {
    const path = join(dir, file);
    const all = lines(await readText(path));
    for (const [index, line] of all) {
      const where = `The old store file ${path} line ${index + 1}`;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        if (index === all.at(-1)![0]) break; // torn by a crash during its append: never acknowledged
        throw legacyProblem('corrupt', where, 'is not valid JSON');
      }
      const record = parseLegacy(journalRecordSchema, data, where);
      if (record.n <= last) throw legacyProblem('schema', where, `has record number ${record.n}, which does not follow ${last}`);
      last = record.n;
      if (record.n > core.journalSeq) await applyLegacyRecord(db, record, where);
    }
  }
  await finishLegacy(db, core.version, now);
  // The audit log is a record, not state: a line that cannot be read (a torn tail) is skipped and counted.
  let bad = 0;
  for (const [, line] of lines(await readText(join(dir, 'audit.jsonl'), ''))) {
    let entry: unknown;
    try {
      entry = auditEntrySchema.safeParse(JSON.parse(line)).data;
    } catch {
      entry = undefined;
    }
    if (entry) await db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(entry)]);
    else bad += 1;
  }
  if (bad > 0) logger.warn({ file: join(dir, 'audit.jsonl') }, `skipped ${bad} unreadable audit line(s) of the old data directory`);
  // The archive: the last copy of each conversation still marked archived (a key's copies are in one file, oldest
  // first; a torn line, from a crash during an append, was still in the hot set).
  const latest = new Map<string, string>();
  for (const file of await filesIn(join(dir, 'archive'), /\.jsonl$/)) {
    for (const [, line] of lines(await readText(join(dir, 'archive', file)))) {
      const key = keyOf(line);
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

function keyOf(line: string): unknown {
  try {
    return (JSON.parse(line) as { key?: unknown }).key;
  } catch {
    return undefined;
  }
}

/** The non-empty lines of a file with their index (line number - 1). */
function lines(text: string): Array<[number, string]> {
  return [...text.split('\n').entries()].filter(([, line]) => line.length > 0);
}

async function filesIn(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => pattern.test(name)).sort();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw new StoreError('io', `Cannot read the directory ${dir}: ${describeCause(error)}.`, { cause: error });
  }
}

async function readText(path: string, missing?: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (missing !== undefined && (error as { code?: unknown }).code === 'ENOENT') return missing;
    throw new StoreError('io', `Cannot read ${path}: ${describeCause(error)}.`, { cause: error });
  }
}
