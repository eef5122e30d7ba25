import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../../src/storage/index.js';
import { sqliteDriver } from '../../../src/storage/sql-store/sql-driver.js';
import { SqlSession } from '../../../src/storage/sql-store/sql-session.js';
import { openDatabase } from '../../../src/storage/sqlite/open-sqlite-store.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** A session on an in-memory SQLite database whose driver counts COMMITs; `holdCommits` makes each wait for `release`. */
async function countingSession(windowMs: number, holdCommits = false) {
  const driver = sqliteDriver(await openDatabase(':memory:'), async () => {}, false);
  const counted = { commits: 0 };
  const held: Array<() => void> = [];
  const commit = driver.commit.bind(driver);
  driver.commit = async () => {
    if (holdCommits) await new Promise<void>((release) => held.push(release));
    await commit();
    counted.commits += 1;
  };
  const session = new SqlSession(driver, windowMs, silent);
  return { session, counted, held };
}

/** A caller's write: one task writing one row, durable (resolves once committed) or not. */
function write(session: SqlSession, id: number, durable = false): Promise<number> {
  return session.run(() => session.write('INSERT INTO bridge_cursors (topic, body) VALUES (?, ?)', [`t${id}`, '{}']), durable);
}

/** Whether `promise` has settled, after the microtasks now queued ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the SQL session commit window', () => {
  it('commits the writes of several callers made within the window, on different turns, in one COMMIT', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const { session, counted } = await countingSession(20);
    const first = write(session, 1, true);
    await vi.advanceTimersByTimeAsync(5);
    const second = write(session, 2, true);
    await vi.advanceTimersByTimeAsync(10);
    const third = write(session, 3);
    await vi.advanceTimersByTimeAsync(4);
    expect(counted.commits).toBe(0);
    expect(await settled(first)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, second, third]);
    expect(counted.commits).toBe(1);
  });

  it('counts the window from the first write of the batch, so a steady stream of writes still commits every window', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const { session, counted } = await countingSession(20);
    const writes: Array<Promise<number>> = [];
    // A write every 2 ms for 100 ms: were the window to restart at each write, nothing would ever commit.
    for (let i = 0; i < 50; i++) {
      writes.push(write(session, i, true));
      await vi.advanceTimersByTimeAsync(2);
    }
    expect(await settled(writes[0] as Promise<number>)).toBe(true);
    expect(counted.commits).toBe(5);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(writes);
    expect(counted.commits).toBe(5);
  });

  it('resolves a flush only once the commit holding the writes before it is done', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const { session, counted } = await countingSession(30);
    void write(session, 1);
    await vi.advanceTimersByTimeAsync(10);
    const flushed = session.flush();
    await vi.advanceTimersByTimeAsync(19);
    expect(await settled(flushed)).toBe(false);
    expect(counted.commits).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await flushed;
    expect(counted.commits).toBe(1);
    // Nothing open: a flush has nothing to wait for.
    await session.flush();
    expect(counted.commits).toBe(1);
  });

  it('puts a write that arrives while a COMMIT is running in the next transaction, and its durable wait waits for that one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const { session, counted, held } = await countingSession(10, true);
    const first = write(session, 1, true);
    await vi.advanceTimersByTimeAsync(10);
    // The first COMMIT has started and waits on the disk.
    expect(held).toHaveLength(1);
    const during = write(session, 2, true);
    held.shift()?.();
    await first;
    expect(counted.commits).toBe(1);
    expect(await settled(during)).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(held).toHaveLength(1);
    held.shift()?.();
    await during;
    expect(counted.commits).toBe(2);
  });

  it('with a window of 0 commits on the next turn: writes made on two turns are two commits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
    const { session, counted } = await countingSession(0);
    const first = write(session, 1, true);
    await vi.advanceTimersByTimeAsync(0);
    const second = write(session, 2, true);
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([first, second]);
    expect(counted.commits).toBe(2);
  });
});

describe('the SQLite store commit window', () => {
  it('keeps its transaction open 20 ms by default, so writes of several conversations in that time share one commit and one sync', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'commit-window-'));
    const store = await openSqliteStore({ dataDir: dir });
    try {
      await store.setCursor('warm', 1);
      await store.flush();
      const before = store.stats().fsyncs;
      vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
      const first = store.setCursor('a', 1);
      await vi.advanceTimersByTimeAsync(4);
      const second = store.setCursor('b', 2);
      await vi.advanceTimersByTimeAsync(15);
      const flushed = store.flush();
      expect(await settled(flushed)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all([first, second, flushed]);
      expect(store.stats().fsyncs - before).toBe(1);
    } finally {
      vi.useRealTimers();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes its window from the writeIntervalMs option (BRIDGE_COMMIT_WINDOW_MS): 0 commits each turn on its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'commit-window-'));
    const store = await openSqliteStore({ dataDir: dir, writeIntervalMs: 0 });
    try {
      await store.setCursor('warm', 1);
      await store.flush();
      const before = store.stats().fsyncs;
      vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] });
      void store.setCursor('a', 1);
      await vi.advanceTimersByTimeAsync(0);
      void store.setCursor('b', 2);
      await vi.advanceTimersByTimeAsync(0);
      await store.flush();
      expect(store.stats().fsyncs - before).toBe(2);
    } finally {
      vi.useRealTimers();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
