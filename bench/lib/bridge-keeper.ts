import { startBridge, type BridgeSettings, type RunningBridge } from './processes.js';

/**
 * One bridge at a time on one data directory, killed with SIGKILL and started again on demand. Keeps every
 * line any incarnation printed (stdout and stderr), for the secrets check.
 */
export class BridgeKeeper {
  private current: RunningBridge | undefined;
  private readonly retired: string[][] = [];
  kills = 0;
  /** Per kill: from the kill until the next incarnation answered its health check (the bridge was down). */
  readonly downMs: number[] = [];
  private killedAt: number | undefined;

  constructor(
    private readonly simUrl: string,
    private readonly settings: BridgeSettings,
  ) {}

  get running(): RunningBridge | undefined {
    return this.current;
  }

  async start(): Promise<RunningBridge> {
    if (this.current) return this.current;
    this.current = await startBridge(this.simUrl, this.settings);
    if (this.killedAt !== undefined) this.downMs.push(Math.round(performance.now() - this.killedAt));
    this.killedAt = undefined;
    return this.current;
  }

  /** kill -9: no clean shutdown, no flush. */
  async kill(): Promise<void> {
    const b = this.current;
    if (!b) return;
    this.current = undefined;
    this.killedAt = performance.now();
    await b.child.stop('SIGKILL');
    this.retired.push(b.child.lines);
    this.kills++;
  }

  async stop(): Promise<void> {
    const b = this.current;
    if (!b) return;
    this.current = undefined;
    await b.child.stop('SIGTERM');
    this.retired.push(b.child.lines);
  }

  /** Every output line of every incarnation so far. */
  allLines(): string[] {
    return [...this.retired.flat(), ...(this.current?.child.lines ?? [])];
  }
}
