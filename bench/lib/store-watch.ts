import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const JOURNAL_FILE = /^journal-\d+\.jsonl$/;
const WRITES_METRIC = /^engage_bridge_store_writes\s+(\d+(?:\.\d+)?)$/m;

/**
 * Watches the bridge's store from outside its process while the load runs. Group commits (each one
 * journal append and one fsync) are read from `/metrics` (`engage_bridge_store_writes`, the store's own
 * count); journal bytes from the sizes of the `journal-*.jsonl` files in the data directory (a file's
 * largest size seen; a file that a snapshot deletes has stopped growing long before, as the snapshot
 * starts by rotating to a new one). Sampled every second.
 */
export class StoreJournalWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly journalSizes = new Map<string, number>();
  private startBytes = 0;
  private startWrites: number | undefined;
  private lastWrites: number | undefined;
  private lastAt = 0;
  private startedAt = 0;
  private stoppedAt = 0;
  /** The most group commits seen in one sampling second. */
  peakWritesPerSecond = 0;

  constructor(
    private readonly dataDir: string,
    private readonly bridgeUrl: string,
  ) {}

  async start(): Promise<void> {
    await this.sampleJournal();
    this.startBytes = this.journalBytes();
    this.startWrites = await this.readWrites();
    this.lastWrites = this.startWrites;
    this.startedAt = Date.now();
    this.lastAt = this.startedAt;
    this.timer = setInterval(() => void this.sample(), 1000);
  }

  async stop(): Promise<{ writes: number | null; journalBytes: number; seconds: number }> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sample();
    this.stoppedAt = Date.now();
    const writes = this.lastWrites !== undefined && this.startWrites !== undefined ? this.lastWrites - this.startWrites : null;
    return {
      writes,
      journalBytes: this.journalBytes() - this.startBytes,
      seconds: Math.max(0.001, (this.stoppedAt - this.startedAt) / 1000),
    };
  }

  private async sample(): Promise<void> {
    await this.sampleJournal();
    const writes = await this.readWrites();
    const now = Date.now();
    if (writes !== undefined && this.lastWrites !== undefined && now > this.lastAt) {
      this.peakWritesPerSecond = Math.max(
        this.peakWritesPerSecond,
        Math.round(((writes - this.lastWrites) * 1000) / Math.max(1000, now - this.lastAt)),
      );
    }
    if (writes !== undefined) this.lastWrites = writes;
    this.lastAt = now;
  }

  private journalBytes(): number {
    let total = 0;
    for (const size of this.journalSizes.values()) total += size;
    return total;
  }

  private async sampleJournal(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dataDir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!JOURNAL_FILE.test(name)) continue;
      const size = await stat(join(this.dataDir, name)).then(
        (info) => info.size,
        () => 0,
      );
      this.journalSizes.set(name, Math.max(size, this.journalSizes.get(name) ?? 0));
    }
  }

  private async readWrites(): Promise<number | undefined> {
    try {
      const response = await fetch(`${this.bridgeUrl}/metrics`);
      const match = WRITES_METRIC.exec(await response.text());
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
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
