import { join } from 'node:path';
import { startBridge, type BridgeSettings, type RunningBridge } from './processes.js';

/** Whether the bridge at `url` says it is the active instance (`engage_bridge_active 1` in /metrics). */
async function isActive(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/metrics`);
    const text = await res.text();
    return /^engage_bridge_active 1$/m.test(text);
  } catch {
    return false;
  }
}

/**
 * Two bridges on one PostgreSQL database, one active and one standby. `killActive` kills the active one with
 * SIGKILL and measures how long until the standby says it is active; the killed one is restarted as the new
 * standby. Keeps every line any incarnation printed, for the secrets check.
 */
export class FailoverPair {
  private readonly slots: Array<RunningBridge | undefined> = [undefined, undefined];
  private readonly retired: string[][] = [];
  readonly takeoverMs: number[] = [];
  kills = 0;

  constructor(
    private readonly simUrl: string,
    private readonly settings: BridgeSettings,
    private readonly baseDir: string,
  ) {}

  private settingsOf(slot: number): BridgeSettings {
    // Each instance has its own directory (its command socket); the store is the shared database.
    return { ...this.settings, dataDir: join(this.baseDir, `instance-${slot}`) };
  }

  /** Starts whichever of the two is not running; the first one becomes active. */
  async start(): Promise<void> {
    for (const slot of [0, 1]) {
      if (this.slots[slot]) continue;
      this.slots[slot] = await startBridge(this.simUrl, this.settingsOf(slot));
      if (slot === 0) await this.waitForActive(30_000);
    }
  }

  /** The active instance's address, when one is active. */
  async activeUrl(): Promise<string | undefined> {
    for (const b of this.slots) if (b && (await isActive(b.url))) return b.url;
    return undefined;
  }

  private async waitForActive(timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const url = await this.activeUrl();
      if (url) return url;
      if (Date.now() > deadline) {
        const tails = this.slots.map((b, i) => `instance ${i}:\n${(b?.child.lines ?? ['(not running)']).slice(-15).join('\n')}`);
        throw new Error(`no active instance within ${timeoutMs} ms\n${tails.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * kill -9 of the active instance; resolves once the other one took over (its takeover time recorded) and the
   * killed one runs again as the standby. Returns the new active instance's address.
   */
  async killActive(): Promise<string> {
    const slot = await this.activeSlot();
    const victim = this.slots[slot]!;
    this.slots[slot] = undefined;
    const killedAt = performance.now();
    await victim.child.stop('SIGKILL');
    this.retired.push(victim.child.lines);
    this.kills++;
    const url = await this.waitForActive(120_000);
    this.takeoverMs.push(Math.round(performance.now() - killedAt));
    this.slots[slot] = await startBridge(this.simUrl, this.settingsOf(slot));
    return url;
  }

  private async activeSlot(): Promise<number> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      for (const slot of [0, 1]) {
        const b = this.slots[slot];
        if (b && (await isActive(b.url))) return slot;
      }
      if (Date.now() > deadline) throw new Error('no active instance to kill');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async stop(): Promise<void> {
    for (const slot of [0, 1]) {
      const b = this.slots[slot];
      if (!b) continue;
      this.slots[slot] = undefined;
      await b.child.stop('SIGTERM');
      this.retired.push(b.child.lines);
    }
  }

  async killAll(): Promise<void> {
    for (const b of this.slots) await b?.child.stop('SIGKILL');
  }

  allLines(): string[] {
    return [...this.retired.flat(), ...this.slots.flatMap((b) => b?.child.lines ?? [])];
  }
}
