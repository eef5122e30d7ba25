import type { SimClient } from './sim-client.js';

/**
 * Follows one of the simulator's logs (`/_sim/outbound` or `/_sim/requests`) in the background, keeping every
 * entry and the wall-clock time (ms) the bench first saw it. A read costs one loopback request, so a short
 * period adds little load; the period bounds how late a reply can be noticed.
 */
export class LogTail<T extends { seq: number }> {
  readonly entries: Array<T & { seenAt: number }> = [];
  private cursor: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly listeners = new Set<(e: T & { seenAt: number }) => void>();

  constructor(
    private readonly read: (after: number) => Promise<T[]>,
    private readonly periodMs: number,
    after = 0,
  ) {
    this.cursor = after;
  }

  static outbound(client: SimClient, periodMs: number, after = 0) {
    return new LogTail((a) => client.outbound(a), periodMs, after);
  }

  static requests(client: SimClient, periodMs: number, after = 0) {
    return new LogTail((a) => client.requests(a), periodMs, after);
  }

  get last(): number {
    return this.cursor;
  }

  onEntry(listener: (e: T & { seenAt: number }) => void): void {
    this.listeners.add(listener);
  }

  start(): void {
    this.stopped = false;
    this.loop();
  }

  /** Reads to the current end of the log now (and returns the new entries). */
  async catchUp(): Promise<Array<T & { seenAt: number }>> {
    while (this.running) await this.running;
    const p = this.readOnce();
    // Waiters only need to know the read is over: its failure is the caller's (through `p`), never a second, unhandled one.
    this.running = p
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (this.running = undefined));
    return p;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await this.running;
    await this.catchUp();
  }

  private loop(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.catchUp()
        .catch(() => undefined) // the simulator may be briefly busy; the next read catches up
        .finally(() => this.loop());
    }, this.periodMs);
  }

  private async readOnce(): Promise<Array<T & { seenAt: number }>> {
    const fresh: Array<T & { seenAt: number }> = [];
    for (;;) {
      const page = await this.read(this.cursor);
      const seenAt = Date.now();
      for (const e of page) {
        const entry = { ...e, seenAt };
        this.entries.push(entry);
        fresh.push(entry);
        for (const l of this.listeners) l(entry);
      }
      if (page.length === 0) return fresh;
      this.cursor = page[page.length - 1]!.seq;
      if (page.length < 10_000) return fresh;
    }
  }
}
