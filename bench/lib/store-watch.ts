import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The store's core file: every hot write of the file store replaces it (temp file, then rename). */
const CORE_FILE = 'store.json';

/**
 * Counts the bridge's store writes from outside its process: each write renames a fresh `store.json` into the
 * data directory, which inotify reports as one `rename` event for that name. (The bridge's /metrics has no
 * store-write counter; see bench/README.md.)
 */
export class StoreWriteCounter {
  private watcher: FSWatcher | undefined;
  /** When each write was noticed (ms). */
  readonly times: number[] = [];

  constructor(private readonly dataDir: string) {}

  start(): void {
    this.watcher = watch(this.dataDir, (event, name) => {
      if (event === 'rename' && name === CORE_FILE) this.times.push(Date.now());
    });
  }

  get writes(): number {
    return this.times.length;
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/** Total size in bytes of every file under `dir`. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
