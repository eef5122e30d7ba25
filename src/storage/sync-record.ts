import { link, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isCode } from './lock-file.js';
import { PRIVATE_FILE_MODE } from './private-files.js';

/**
 * Debug only (`BRIDGE_DEBUG_SYNC_RECORD`): what a power cut would keep, written down after every sync the
 * store waits for, so a test or the chaos campaign can take a `kill -9`'s data directory back to it
 * (`cutToSyncRecord`). The record itself is never synced: the simulation models the disk losing unsynced
 * data, not the operating system.
 */
export const SYNC_RECORD_FILE = 'debug-sync-record.json';
/** The durable core while a new one is being renamed over it (a hard link: no copy). */
export const CORE_BEFORE_SUFFIX = '.before-rename';

const recordSchema = z.object({
  /** The journal file records go to, and its length when its last sync returned. */
  journal: z
    .string()
    .regex(/^journal-\d{12}\.jsonl$/)
    .optional(),
  length: z.number().int().min(0),
  /** `renaming`: a core rename is under way and its directory sync has not returned. */
  core: z.enum(['synced', 'renaming']),
});
type SyncRecordData = z.infer<typeof recordSchema>;

export class SyncRecord {
  private data: SyncRecordData = { length: 0, core: 'synced' };
  /** Journal appends and a background snapshot report at the same time: one file write at a time. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly dataDir: string) {}

  static async open(dataDir: string): Promise<SyncRecord> {
    const record = new SyncRecord(dataDir);
    record.data = (await readSyncRecord(dataDir)) ?? record.data;
    return record;
  }

  /** Called once a journal append's sync returned, before anyone is told. */
  journalSynced(file: string, length: number): Promise<void> {
    return this.write({ ...this.data, journal: file, length });
  }

  /** Before the core's rename: keeps the durable core under a second name until the rename is synced. */
  async coreRenaming(corePath: string): Promise<void> {
    await rm(`${corePath}${CORE_BEFORE_SUFFIX}`, { force: true });
    await link(corePath, `${corePath}${CORE_BEFORE_SUFFIX}`).catch((error: unknown) => {
      if (!isCode(error, 'ENOENT')) throw error;
    });
    await this.write({ ...this.data, core: 'renaming' });
  }

  /** After the directory sync that made the core's rename durable. */
  async coreSynced(corePath: string): Promise<void> {
    await this.write({ ...this.data, core: 'synced' });
    await rm(`${corePath}${CORE_BEFORE_SUFFIX}`, { force: true });
  }

  /** Resolves once the file holds `data` or something newer. */
  private write(data: SyncRecordData): Promise<void> {
    this.data = data;
    const run = this.writing.then(() => writeSyncRecord(this.dataDir, this.data));
    this.writing = run.catch(() => undefined);
    return run;
  }
}

async function writeSyncRecord(dataDir: string, data: SyncRecordData): Promise<void> {
  // Renamed into place, so a kill -9 leaves the old record or the new one, never half of one.
  const path = join(dataDir, SYNC_RECORD_FILE);
  await writeFile(`${path}.next`, JSON.stringify(data), { mode: PRIVATE_FILE_MODE });
  await rename(`${path}.next`, path);
}

async function readSyncRecord(dataDir: string): Promise<SyncRecordData | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, SYNC_RECORD_FILE), 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return undefined;
    throw error;
  }
  return recordSchema.parse(JSON.parse(text));
}

export interface PowerLossCut {
  /** Bytes cut off the journal files (records written but not synced). */
  journalBytes: number;
  /** A core rename that was not synced was undone. */
  coreRenameUndone: boolean;
}

/**
 * Takes a stopped store's data directory (no process may hold it) to what a power cut at that moment would
 * have left, as far as the sync record knows: journal files cut back to their synced length (files after the
 * recorded one emptied; all of them when there is no record: nothing was ever synced with the record on), and a core rename without its directory sync undone. Snapshot shards, the archive
 * and the audit log are left as they are (see the crash matrix in README.md).
 */
export async function cutToSyncRecord(dataDir: string): Promise<PowerLossCut> {
  const record = (await readSyncRecord(dataDir)) ?? { length: 0, core: 'synced' as const };
  const cut: PowerLossCut = { journalBytes: 0, coreRenameUndone: false };
  const journals = (await readdir(dataDir)).filter((name) => /^journal-\d{12}\.jsonl$/.test(name)).sort();
  for (const name of journals) {
    // Every file before the recorded one was synced whole before the next one started.
    if (record.journal !== undefined && name < record.journal) continue;
    const keep = name === record.journal ? record.length : 0;
    const path = join(dataDir, name);
    const { size } = await stat(path);
    if (size > keep) {
      await truncate(path, keep);
      cut.journalBytes += size - keep;
    }
  }
  if (record.core === 'renaming') {
    const core = join(dataDir, 'store.json');
    try {
      await rename(`${core}${CORE_BEFORE_SUFFIX}`, core);
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
      // No core before this one: the directory never durably held one.
      await rm(core, { force: true });
    }
    cut.coreRenameUndone = true;
  }
  await writeSyncRecord(dataDir, { ...record, core: 'synced' });
  return cut;
}
