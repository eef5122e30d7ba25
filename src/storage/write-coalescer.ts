import { performance } from 'node:perf_hooks';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface CoalescerOptions {
  /** Minimum spacing between the starts of two writes. */
  minIntervalMs: number;
  /** Spacing after a failed write, so a full disk is not hammered. */
  retryDelayMs: number;
  onError: (error: unknown) => void;
}

/**
 * Group commit: a mutation marks the state dirty, and one write runs at a time; every caller that
 * arrives while a write is in flight goes out in the next single write (no sooner than `minIntervalMs`
 * after the previous one started: 0 for the file store, no artificial spacing). A caller that needs
 * durability gets a promise that settles with the first write that began after its mutation.
 */
export class WriteCoalescer {
  private waiters: Waiter[] = [];
  private inflight: Waiter[] = [];
  private dirty = false;
  private timer: { timeout?: NodeJS.Timeout; immediate?: NodeJS.Immediate } | undefined;
  private current: Promise<void> | undefined;
  private notBeforeMs = Number.NEGATIVE_INFINITY;
  private urgent = false;

  constructor(
    private readonly write: () => Promise<void>,
    private readonly options: CoalescerOptions,
  ) {}

  /** A mutation that needs no confirmation: it goes out with the next write. */
  markDirty(): void {
    this.dirty = true;
    this.schedule();
  }

  /** A mutation that must be on disk before the caller goes on. */
  whenDurable(): Promise<void> {
    this.dirty = true;
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.schedule();
    return promise;
  }

  /** Settles once everything mutated so far is on disk (or the write failed). */
  flush(): Promise<void> {
    if (this.dirty) return this.whenDurable();
    // Not dirty while a write runs: that write holds every mutation so far.
    if (this.current) return new Promise<void>((resolve, reject) => this.inflight.push({ resolve, reject }));
    return Promise.resolve();
  }

  /** Like `flush()`, but without waiting out the write interval: for shutdown. */
  flushNow(): Promise<void> {
    this.urgent = true;
    this.cancelTimer();
    const flushed = this.flush();
    this.schedule();
    return flushed;
  }

  /** Stops the timer; pending mutations are only written by a later `flush()`. */
  cancelTimer(): void {
    if (this.timer?.timeout) clearTimeout(this.timer.timeout);
    if (this.timer?.immediate) clearImmediate(this.timer.immediate);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.current || this.timer || !this.dirty) return;
    const delay = this.urgent ? 0 : Math.max(0, this.notBeforeMs - performance.now());
    // No spacing (group commit): start as soon as the callers of this turn have had their say.
    if (delay === 0) {
      const immediate = setImmediate(() => {
        this.timer = undefined;
        this.current = this.run();
      });
      this.timer = { immediate };
      return;
    }
    this.timer = {
      timeout: setTimeout(() => {
        this.timer = undefined;
        this.current = this.run();
      }, delay),
    };
  }

  private async run(): Promise<void> {
    const waiters = this.waiters;
    this.inflight = waiters;
    this.waiters = [];
    this.dirty = false;
    this.urgent = false;
    const startedMs = performance.now();
    this.notBeforeMs = startedMs + this.options.minIntervalMs;
    try {
      await this.write();
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      // The state stays in memory and is written again later; only the callers waiting on this write hear of it.
      this.dirty = true;
      this.notBeforeMs = performance.now() + this.options.retryDelayMs;
      for (const waiter of waiters) waiter.reject(error);
      this.options.onError(error);
    } finally {
      this.current = undefined;
      this.inflight = [];
      this.schedule();
    }
  }
}
