import { describe, it, expect, vi, afterEach } from 'vitest';
import { createContactDispatcher } from '../../src/bridge/contact-dispatcher.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A dispatcher already serving `work`. */
function serving(options: {
  concurrency: number;
  work: (key: string) => Promise<void>;
  onError: (key: string, err: unknown, retryInMs: number) => void;
  now?: () => number;
}) {
  const d = createContactDispatcher({
    concurrency: options.concurrency,
    onError: options.onError,
    ...(options.now ? { now: options.now } : {}),
  });
  d.serve(options.work);
  return d;
}

describe('contact dispatcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never runs one contact twice at the same time, and runs it again when scheduled meanwhile', async () => {
    const gates: Array<ReturnType<typeof deferred>> = [];
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const d = serving({
      concurrency: 4,
      work: async () => {
        active++;
        runs++;
        maxActive = Math.max(maxActive, active);
        const g = deferred();
        gates.push(g);
        await g.promise;
        active--;
      },
      onError: () => {},
    });
    d.schedule('a');
    d.schedule('a');
    d.schedule('a');
    expect(maxActive).toBe(1);
    gates.shift()!.resolve();
    await new Promise((r) => setImmediate(r));
    expect(runs).toBe(2);
    gates.shift()!.resolve();
    await d.idle();
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('runs different contacts concurrently up to the bound', async () => {
    const gates: Array<ReturnType<typeof deferred>> = [];
    let active = 0;
    let maxActive = 0;
    const d = serving({
      concurrency: 2,
      work: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        const g = deferred();
        gates.push(g);
        await g.promise;
        active--;
      },
      onError: () => {},
    });
    for (const k of ['a', 'b', 'c', 'd']) d.schedule(k);
    expect(active).toBe(2);
    expect(d.depth()).toBe(4);
    while (gates.length > 0 || d.depth() > 0) {
      gates.shift()?.resolve();
      await new Promise((r) => setImmediate(r));
    }
    await d.idle();
    expect(maxActive).toBe(2);
  });

  it('reports a failing run and keeps serving other contacts', async () => {
    const errors: string[] = [];
    const done: string[] = [];
    const d = serving({
      concurrency: 1,
      work: async (k) => {
        if (k === 'bad') throw new Error('boom');
        done.push(k);
      },
      onError: (k) => errors.push(k),
    });
    d.schedule('bad');
    d.schedule('good');
    await d.idle();
    expect(errors).toEqual(['bad']);
    expect(done).toEqual(['good']);
    await d.stop();
  });

  it('backs off a failing contact exponentially up to a cap, alone, and forgets it after a success', async () => {
    const delays: Array<[string, number]> = [];
    let failA = true;
    const done: string[] = [];
    const d = serving({
      concurrency: 2,
      work: async (key) => {
        if (key === 'a' && failA) throw new Error('transient');
        done.push(key);
      },
      onError: (key, _err, retryInMs) => delays.push([key, retryInMs]),
    });
    for (let i = 0; i < 9; i++) {
      d.schedule('a');
      d.schedule('b');
      await d.idle();
    }
    expect(delays.map(([, ms]) => ms)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    expect(delays.every(([key]) => key === 'a')).toBe(true);
    expect(done.filter((k) => k === 'b')).toHaveLength(9);
    failA = false;
    d.schedule('a');
    await d.idle();
    failA = true;
    d.schedule('a');
    await d.idle();
    expect(delays.at(-1)).toEqual(['a', 5_000]);
    await d.stop();
  });

  it('only queues until it is given its work, then runs what was scheduled', async () => {
    const done: string[] = [];
    const d = createContactDispatcher({ concurrency: 2, onError: () => {} });
    d.schedule('a');
    d.wake('b');
    expect(d.depth()).toBe(2);
    d.serve(async (k) => {
      done.push(k);
    });
    await d.idle();
    expect(done).toEqual(['a', 'b']);
    expect(() => d.serve(async () => {})).toThrow();
  });

  it('wakes a contact at a later time, the earliest asked wins, and a failed run again after its delay', async () => {
    vi.useFakeTimers();
    let nowMs = 1_000_000;
    const runs: string[] = [];
    let fail = true;
    const d = serving({
      concurrency: 1,
      now: () => nowMs,
      work: async (k) => {
        runs.push(k);
        if (k === 'bad' && fail) throw new Error('transient');
      },
      onError: () => {},
    });
    d.wake('a', nowMs + 60_000);
    d.wake('a', nowMs + 10_000);
    expect(runs).toEqual([]);
    nowMs += 10_000;
    await vi.advanceTimersByTimeAsync(10_000);
    await d.idle();
    expect(runs).toEqual(['a']);
    d.schedule('bad');
    await d.idle();
    fail = false;
    nowMs += 5_000;
    await vi.advanceTimersByTimeAsync(5_000);
    await d.idle();
    expect(runs).toEqual(['a', 'bad', 'bad']);
    await d.stop();
    d.wake('a');
    expect(runs).toHaveLength(3);
  });
});
