import { readlinkSync } from 'node:fs';
import { cp, open, readdir, readFile, stat, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { vi } from 'vitest';

/**
 * Watches every file sync of this process (FileHandle#datasync and #sync), to know what a power cut
 * would keep (the length of each file at its last completed sync) and to stop the store exactly at a
 * sync: a gate holds the sync of a file whose path matches until released, so the test can take the
 * disk as a kill -9 at that instant would leave it.
 */
export async function watchSyncs(probeDir: string): Promise<SyncWatch> {
  const probe = await open(join(probeDir, '.probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
  const watch = new SyncWatch();
  for (const method of ['datasync', 'sync'] as const) {
    const original = proto[method];
    vi.spyOn(proto, method).mockImplementation(async function (this: FileHandle) {
      const path = readlinkSync(`/proc/self/fd/${this.fd}`);
      await watch.pass(path);
      await original.call(this);
      const info = await this.stat();
      watch.synced.set(`${info.dev}:${info.ino}`, info.size);
    });
  }
  return watch;
}

export class SyncWatch {
  /** By `dev:ino` (a renamed file keeps what was synced under its old name): the length at the last sync. */
  readonly synced = new Map<string, number>();
  private gate: { match: RegExp; reached: () => void; released: Promise<void> } | undefined;
  private release: (() => void) | undefined;

  /** Holds the next sync of a matching file; resolves once the store is stopped there. */
  holdNext(match: RegExp): Promise<void> {
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (this.release = resolve));
    this.gate = { match, reached, released };
    return atGate;
  }

  releaseHeld(): void {
    this.release?.();
  }

  async pass(path: string): Promise<void> {
    const gate = this.gate;
    if (!gate?.match.test(path)) return;
    this.gate = undefined;
    gate.reached();
    await gate.released;
  }
}

/** The data directory as a kill -9 leaves it: whatever is in the files now (the page cache), without the live lock. */
export async function killCopy(dataDir: string, into: string): Promise<string> {
  await cp(dataDir, into, { recursive: true, filter: (source) => !source.endsWith('store.lock') });
  return into;
}

/**
 * The data directory as a power cut leaves it: every file cut back to its length at its last sync,
 * emptied if it was never synced (the audit log is the one file the store does not sync). Directory
 * entries are taken as durable (the store syncs its directories, but that is not modelled here).
 */
export async function powerLossCopy(dataDir: string, into: string, watch: SyncWatch): Promise<string> {
  await killCopy(dataDir, into);
  const visit = async (relative: string): Promise<void> => {
    const source = join(dataDir, relative);
    const info = await stat(source).catch(() => undefined);
    if (!info) return;
    if (info.isDirectory()) {
      for (const name of await readdir(join(into, relative))) await visit(join(relative, name));
      return;
    }
    const synced = watch.synced.get(`${info.dev}:${info.ino}`) ?? 0;
    if (info.size > synced) await truncate(join(into, relative), synced);
  };
  await visit('');
  return into;
}

export function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  );
  return flag;
}

/** The journal of a copied data directory and its last record: the file, its text, the line and the record parsed. */
export async function lastJournalRecord(copy: string): Promise<{
  path: string;
  text: string;
  last: string;
  record: { conversations: Array<[string]>; outbox: Array<[string]> };
}> {
  const [journal] = (await readdir(copy)).filter((name) => name.startsWith('journal-'));
  const path = join(copy, journal!);
  const text = await readFile(path, 'utf8');
  const last = text.trimEnd().split('\n').at(-1)!;
  return { path, text, last, record: JSON.parse(last) as { conversations: Array<[string]>; outbox: Array<[string]> } };
}
