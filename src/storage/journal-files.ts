import { open, readdir, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { BatchProblem, parseRecord } from './journal-batch.js';
import type { JournalRecord } from './journal-batch.js';
import { PRIVATE_FILE_MODE, makePrivate } from './private-files.js';
import { StoreError, describeCause } from './store-error.js';
import { syncDir } from './sync-dir.js';
import type { SyncRecord } from './sync-record.js';

const NAME = /^journal-(\d{12})\.jsonl$/;
const LEAVE_IT = 'The file was left unchanged: fix it, restore a backup, or move the data directory away.';

export function journalFileName(firstSeq: number): string {
  return `journal-${String(firstSeq).padStart(12, '0')}.jsonl`;
}

export interface JournalCounters {
  fsyncs: number;
  bytes: number;
}

/**
 * The journal: JSON Lines files named by the first record they hold, appended to and synced one
 * record at a time. A snapshot rotates to a fresh file and, once the snapshot is durable, deletes the
 * files before it. Every operation runs in turn, so a rotation falls exactly between two records.
 */
export class JournalFiles {
  private queue: Promise<unknown> = Promise.resolve();
  private handle: FileHandle | undefined;
  /** Length of the file records go to, up to its last whole record. */
  private length = 0;
  /** The file records go to; undefined after a rotation (the next record starts a file). */
  private appendTo: string | undefined;
  /** Bytes in the journal files since the last snapshot: when to take the next one. */
  bytesSinceSnapshot = 0;

  constructor(
    private readonly dataDir: string,
    private readonly counters: JournalCounters,
    /** Debug only: told what is on disk after each sync, before the caller is. */
    private readonly syncRecord?: SyncRecord,
  ) {}

  /** Appends one record and syncs it; resolves only once it is on disk. */
  append(seq: number, body: string): Promise<number> {
    return this.exclusive('append to the journal in', async () => {
      const line = `{"n":${seq}${body.length > 0 ? `,${body}` : ''}}\n`;
      const handle = await this.current(seq);
      const buffer = Buffer.from(line, 'utf8');
      try {
        for (let written = 0; written < buffer.length; ) {
          written += (await handle.write(buffer, written, buffer.length - written)).bytesWritten;
        }
        await handle.datasync();
      } catch (error) {
        await this.undoAppend(handle);
        throw error;
      }
      this.length += buffer.length;
      // Only after the sync returned: the record must never claim what a power cut could still take.
      await this.syncRecord?.journalSynced(this.appendTo!, this.length);
      this.counters.fsyncs += 1;
      this.counters.bytes += buffer.length;
      this.bytesSinceSnapshot += buffer.length;
      return buffer.length;
    });
  }

  /**
   * Between two records: runs `cut` (synchronously, so the state it copies is exactly what the journal
   * holds up to `lastSeq`) and makes the next record start a new file.
   */
  rotate<T>(cut: () => T): Promise<T> {
    return this.exclusive('rotate the journal in', async () => {
      const value = cut();
      await this.closeHandle();
      this.appendTo = undefined;
      this.bytesSinceSnapshot = 0;
      return value;
    });
  }

  /** Deletes every journal file but the one records go to now: a durable snapshot covers them all. */
  deleteCovered(): Promise<void> {
    return this.exclusive('delete old journal files in', async () => {
      let removed = false;
      for (const { name } of await this.files()) {
        if (name === this.appendTo) continue;
        await rm(join(this.dataDir, name), { force: true });
        removed = true;
      }
      if (removed) await syncDir(this.dataDir);
    });
  }

  /**
   * Visits every record in order. A torn last line of a file (a crash during its append, never
   * acknowledged) is cut off; anything else that cannot be read refuses the start, naming the file and
   * the line but never quoting it.
   */
  async replay(visit: (record: JournalRecord, where: string) => void): Promise<number> {
    const files = await this.files();
    let lastSeq = 0;
    for (const { name } of files) {
      const path = join(this.dataDir, name);
      const text = await readText(path);
      this.bytesSinceSnapshot += Buffer.byteLength(text);
      const lines = text.split('\n');
      let goodBytes = 0;
      for (const [lineIndex, line] of lines.entries()) {
        const lineNumber = lineIndex + 1;
        const isLastLine = lineIndex === lines.length - 1 || (lineIndex === lines.length - 2 && lines[lines.length - 1] === '');
        if (line.length === 0) {
          goodBytes += 1;
          continue;
        }
        let data: unknown;
        try {
          data = JSON.parse(line);
        } catch {
          // A torn last line: a crash during its append (or a failed append that could not be cut off), never acknowledged.
          if (isLastLine) {
            await cutTornTail(path, goodBytes);
            break;
          }
          throw new StoreError('corrupt', `The journal file ${path} line ${lineNumber} is not valid JSON. ${LEAVE_IT}`);
        }
        let record: JournalRecord;
        try {
          record = parseRecord(data);
          if (record.n <= lastSeq) throw new BatchProblem(`record number ${record.n} does not follow ${lastSeq}`);
          visit(record, `${path} line ${lineNumber}`);
        } catch (error) {
          if (!(error instanceof BatchProblem)) throw error;
          throw new StoreError('schema', `The journal file ${path} line ${lineNumber} cannot be replayed:\n${error.message}\n${LEAVE_IT}`);
        }
        lastSeq = record.n;
        goodBytes += Buffer.byteLength(line) + 1;
      }
    }
    this.appendTo = files.at(-1)?.name;
    return lastSeq;
  }

  close(): Promise<void> {
    return this.exclusive('close the journal in', () => this.closeHandle());
  }

  /**
   * A failed append (a full disk) may have left part of its line: cut it off, or the next record would
   * follow a torn line in the middle of the file. If even that fails, the next record starts a new file.
   */
  private async undoAppend(handle: FileHandle): Promise<void> {
    try {
      await handle.truncate(this.length);
    } catch {
      await this.closeHandle().catch(() => undefined);
      this.appendTo = undefined;
    }
  }

  private async current(seq: number): Promise<FileHandle> {
    if (this.handle) return this.handle;
    // After a restart the last file goes on; after a rotation a new one starts at this record.
    const name = this.appendTo ?? journalFileName(seq);
    const path = join(this.dataDir, name);
    this.handle = await open(path, 'a', PRIVATE_FILE_MODE);
    this.length = (await this.handle.stat()).size;
    if (this.appendTo === undefined) {
      await makePrivate(path);
      await syncDir(this.dataDir);
    }
    this.appendTo = name;
    return this.handle;
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  private async files(): Promise<Array<{ name: string; firstSeq: number }>> {
    const found: Array<{ name: string; firstSeq: number }> = [];
    for (const name of await readdir(this.dataDir)) {
      const match = NAME.exec(name);
      if (match) found.push({ name, firstSeq: Number(match[1]) });
    }
    return found.sort((a, b) => a.firstSeq - b.firstSeq);
  }

  private exclusive<T>(verb: string, fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      try {
        return await fn();
      } catch (error) {
        if (error instanceof StoreError) throw error;
        throw new StoreError('io', `Cannot ${verb} ${this.dataDir}: ${describeCause(error)}.`, { cause: error });
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

async function readText(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Drops a torn last line so the next append starts on a clean line; synced, as the append after it will be. */
async function cutTornTail(path: string, goodBytes: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(goodBytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
