import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const WRITES_METRIC = /^engage_bridge_store_writes\s+(\d+(?:\.\d+)?)$/m;

/**
 * Watches the bridge's store from outside its process while the load runs. Group commits (each one SQLite
 * transaction, its WAL synced) are read from `/metrics` (`engage_bridge_store_writes`, the store's own count),
 * sampled every second; bytes written to the disk from `/proc/<pid>/io` (`write_bytes`: what the bridge process
 * sent to the block layer, WAL appends and checkpoints alike; its logs go to a pipe and are not in it).
 */
export class StoreWriteWatch {
  private timer: NodeJS.Timeout | undefined;
  private startBytes: number | undefined;
  private startWrites: number | undefined;
  private lastWrites: number | undefined;
  private lastAt = 0;
  private startedAt = 0;
  private stoppedAt = 0;
  /** The most group commits seen in one sampling second. */
  peakWritesPerSecond = 0;

  constructor(
    private readonly pid: number | undefined,
    private readonly bridgeUrl: string,
  ) {}

  async start(): Promise<void> {
    this.startBytes = await this.writtenBytes();
    this.startWrites = await this.readWrites();
    this.lastWrites = this.startWrites;
    this.startedAt = Date.now();
    this.lastAt = this.startedAt;
    this.timer = setInterval(() => void this.sample(), 1000);
  }

  /** `diskBytes` is null where `/proc/<pid>/io` cannot be read. */
  async stop(): Promise<{ writes: number | null; diskBytes: number | null; seconds: number }> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sample();
    const endBytes = await this.writtenBytes();
    this.stoppedAt = Date.now();
    const writes = this.lastWrites !== undefined && this.startWrites !== undefined ? this.lastWrites - this.startWrites : null;
    return {
      writes,
      diskBytes: endBytes !== undefined && this.startBytes !== undefined ? endBytes - this.startBytes : null,
      seconds: Math.max(0.001, (this.stoppedAt - this.startedAt) / 1000),
    };
  }

  private async sample(): Promise<void> {
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

  private async writtenBytes(): Promise<number | undefined> {
    if (this.pid === undefined) return undefined;
    try {
      const match = /^write_bytes:\s+(\d+)$/m.exec(await readFile(`/proc/${this.pid}/io`, 'utf8'));
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
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
