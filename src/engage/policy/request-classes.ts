/** Requests are sorted into classes so that a burst of polling cannot starve a handover. */
export type RequestClass = 'read' | 'write' | 'handover';

export type ConcurrencyLimits = Record<RequestClass, number>;

export const DEFAULT_CONCURRENCY: Readonly<ConcurrencyLimits> = { read: 4, write: 2, handover: 2 };

/** A counting semaphore: at most `limit` holders, the rest wait in arrival order. */
export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next !== undefined) next();
      else this.active -= 1;
    };
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }
}
