import { WakeTimers } from './wake-timers.js';

/**
 * Runs work per contact: one run at a time for a contact (so its messages stay in order), different contacts
 * at the same time up to a bound. Scheduling a contact that is already running makes it run once more after,
 * so nothing that arrived meanwhile is left waiting.
 *
 * It is built before the parts that wake contacts (their context takes `wake`), and the work it runs is the
 * worker built from that context: `serve` hands it the work once, after both exist. Until then it only queues.
 */
export interface ContactDispatcher {
  /** Asks for `work(key)` to run for this contact soon. */
  schedule(key: string): void;
  /** Asks for a contact's run now, or at `atMs` (one timer per contact, the earliest wins). */
  wake(key: string, atMs?: number): void;
  /** Gives the work to run (once); what was scheduled before starts now. */
  serve(work: (key: string) => Promise<void>): void;
  /** Contacts waiting or running. */
  depth(): number;
  /** Resolves when nothing is running or waiting. */
  idle(): Promise<void>;
  /** Stops taking new work, drops the timers, and waits for runs in progress. */
  stop(): Promise<void>;
}

/** First retry of a contact whose run failed; each further failure in a row doubles it, up to the cap. */
export const RETRY_BASE_MS = 5_000;
export const RETRY_CAP_MS = 5 * 60_000;

/** Delay before retrying a contact after `failures` failed runs in a row (1 for the first). */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(Math.max(0, failures - 1), 16));
}

export function createContactDispatcher(options: {
  concurrency: number;
  now?: () => number;
  /**
   * A run failed: `retryInMs` grows per contact with each failure in a row (see `retryDelayMs`), reset by a success.
   * The dispatcher wakes the contact again after that delay itself.
   */
  onError: (key: string, err: unknown, retryInMs: number) => void;
}): ContactDispatcher {
  const now = options.now ?? Date.now;
  let work: ((key: string) => Promise<void>) | undefined;
  // Failed runs in a row, per contact: one failing contact backs off alone, the others keep their pace.
  const failures = new Map<string, number>();
  const waiting: string[] = [];
  const waitingSet = new Set<string>();
  const running = new Set<string>();
  const again = new Set<string>();
  let stopped = false;
  let idleWaiters: Array<() => void> = [];

  const settleIdle = () => {
    if (running.size === 0 && waiting.length === 0) {
      const w = idleWaiters;
      idleWaiters = [];
      for (const resolve of w) resolve();
    }
  };

  const pump = () => {
    if (work === undefined) return;
    while (!stopped && running.size < options.concurrency && waiting.length > 0) {
      const key = waiting.shift() as string;
      waitingSet.delete(key);
      running.add(key);
      void work(key)
        .then(
          () => failures.delete(key),
          (err: unknown) => {
            const n = (failures.get(key) ?? 0) + 1;
            failures.set(key, n);
            const retryInMs = retryDelayMs(n);
            options.onError(key, err, retryInMs);
            wake(key, now() + retryInMs);
          },
        )
        .finally(() => {
          running.delete(key);
          if (again.delete(key) && !stopped) enqueue(key);
          pump();
          settleIdle();
        });
    }
  };

  const enqueue = (key: string) => {
    if (waitingSet.has(key)) return;
    waitingSet.add(key);
    waiting.push(key);
  };

  const schedule = (key: string) => {
    if (stopped) return;
    if (running.has(key)) again.add(key);
    else enqueue(key);
    pump();
  };
  const timers = new WakeTimers(now, schedule);
  const wake = (key: string, atMs?: number) => {
    if (stopped) return;
    if (atMs === undefined || atMs <= now()) schedule(key);
    else timers.at(key, atMs);
  };

  return {
    schedule,
    wake,
    serve(w) {
      if (work !== undefined) throw new Error('the dispatcher already has its work');
      work = w;
      pump();
    },
    depth: () => waiting.length + running.size,
    idle() {
      if (running.size === 0 && waiting.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      timers.clear();
      waiting.length = 0;
      waitingSet.clear();
      again.clear();
      if (running.size > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
}
