import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStoreError, openSqliteStore } from '../../src/storage/index.js';
import { DAY_MS } from '../../src/storage/store-options.js';
import { acquireLock } from './fixtures/release-0.1/lock-file.js';
import { T0, conversation, mention } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

async function modes(root: string): Promise<Array<{ path: string; dir: boolean; mode: number }>> {
  const found: Array<{ path: string; dir: boolean; mode: number }> = [];
  const visit = async (path: string): Promise<void> => {
    const info = await stat(path);
    found.push({ path, dir: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return found;
}

function exitedPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });
}

/** A child process that opened the store in `dataDir`, made a durable write and waits; `kill` is kill -9. */
async function startHolder(dataDir: string): Promise<{ child: ChildProcess; kill: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-child.ts'), dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 20_000;
  while (!output.includes('recorded') && Date.now() < deadline && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!output.includes('recorded')) {
    await kill();
    throw new Error(`the child did not open the store: ${output}`);
  }
  return { child, kill };
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the store to refuse');
}

describe('the data directory is private', () => {
  const tempDir = useTempDirs();
  let savedUmask = 0;
  beforeEach(() => {
    savedUmask = process.umask(0o000);
  });
  afterEach(() => {
    process.umask(savedUmask);
  });

  it('makes directories 0700 and files 0600 even under a umask of 000', async () => {
    const dataDir = join(await tempDir(), 'data');
    const clock = { now: T0 };
    const store = await openSqliteStore({ dataDir, clock: () => clock.now });
    await store.recordInbound(mention('9001'));
    await store.saveConversation(conversation('whatsapp:1'));
    await store.enqueueEffect({ key: 'e1', kind: 'reply', contactKey: 'whatsapp:1', payload: { text: 'hi' } });
    await store.audit({ at: T0, actor: 'bridge', action: 'test', subject: 'whatsapp:1' });
    await store.flush();
    clock.now = T0 + 60 * DAY_MS;
    expect(await store.archiveInactive()).toBe(1);
    await store.flush();
    const whileOpen = await modes(dataDir);
    await store.close();
    const found = [...whileOpen, ...(await modes(dataDir))];
    expect(found.filter((entry) => /bridge\.db(-wal|-shm)?$/.test(entry.path)).length).toBeGreaterThanOrEqual(3);
    for (const entry of found)
      expect({ path: entry.path, mode: entry.mode.toString(8) }).toEqual({ path: entry.path, mode: entry.dir ? '700' : '600' });
  });

  it('closes a data directory an older version left world-readable', async () => {
    const dataDir = await tempDir();
    await chmod(dataDir, 0o755);
    await (await openSqliteStore({ dataDir })).close();
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe('700');
  });
});

describe('one process per data directory (bridge.lock, held by the kernel)', () => {
  const tempDir = useTempDirs();

  it('refuses a second open in the same process, naming the directory, the holder and what to do; close frees it', async () => {
    const dataDir = await tempDir();
    const first = await openSqliteStore({ dataDir });
    const error = await refusal(openSqliteStore({ dataDir }));
    expect(isStoreError(error, 'locked')).toBe(true);
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(`process ${process.pid}`);
    expect(error.message).toContain('Stop that process or choose another BRIDGE_DATA_DIR');
    // The refused connection's close did not drop the holder's kernel lock: another process is refused too.
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-child.ts'), dataDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(stderr).toContain(`is in use by process ${process.pid}`);
    await first.close();
    await (await openSqliteStore({ dataDir })).close();
  });

  it("leaves bridge.db open to an operator's sqlite3 while the store runs", async () => {
    const dataDir = await tempDir();
    const store = await openSqliteStore({ dataDir, clock: () => T0 });
    try {
      await store.saveConversation(conversation('1'));
      await store.flush();
      const db = new DatabaseSync(join(dataDir, 'bridge.db'), { readOnly: true });
      expect(db.prepare('SELECT count(*) AS n FROM bridge_conversations').get()).toEqual({ n: 1 });
      db.close();
    } finally {
      await store.close();
    }
  });

  it('refuses an open while another process holds the directory, and is free at once when that process is killed (kill -9)', async () => {
    const dataDir = await tempDir();
    const holder = await startHolder(dataDir);
    try {
      const error = await refusal(openSqliteStore({ dataDir }));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain(`process ${holder.child.pid}`);
      expect(error.message).toContain(dataDir);
    } finally {
      await holder.kill();
    }
    const store = await openSqliteStore({ dataDir });
    expect(await store.hasSeen('2001', 'crash-1')).toBe(true);
    await store.close();
  });

  it("keeps engage-bridge 0.1 out while the store is open: 0.1's own lock refuses the directory, naming this process", async () => {
    const dataDir = await tempDir();
    const store = await openSqliteStore({ dataDir });
    try {
      const error = await refusal(acquireLock(join(dataDir, 'store.lock'), dataDir, silent));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain(`in use by process ${process.pid}`);
    } finally {
      await store.close();
    }
    // Closed, the directory no longer claims a process.
    expect(existsSync(join(dataDir, 'store.lock'))).toBe(false);
  });

  it('is not kept out by the store.lock a killed (kill -9) bridge of this release left, even when its pid now names a live process', async () => {
    const dataDir = await tempDir();
    const holder = await startHolder(dataDir);
    await holder.kill();
    const left = await readFile(join(dataDir, 'store.lock'), 'utf8');
    expect(JSON.parse(left)).toMatchObject({ pid: holder.child.pid });
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => other.once('exit', resolve));
    try {
      // The pid reused by another process, as after a container's restart.
      await writeFile(join(dataDir, 'store.lock'), left.replace(`"pid":${holder.child.pid}`, `"pid":${other.pid}`));
      const store = await openSqliteStore({ dataDir });
      expect(JSON.parse(await readFile(join(dataDir, 'store.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
      await store.close();
    } finally {
      other.kill('SIGKILL');
      await exited;
    }
  });

  it('refuses a directory a live engage-bridge 0.1 holds (its store.lock), and ignores one whose process is gone', async () => {
    const dataDir = await tempDir();
    const old = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => old.once('exit', resolve));
    try {
      await writeFile(join(dataDir, 'store.lock'), JSON.stringify({ pid: old.pid, startedAt: 'earlier' }));
      const error = await refusal(openSqliteStore({ dataDir }));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain(`process ${old.pid}, store.lock`);
    } finally {
      old.kill('SIGKILL');
      await exited;
    }
    await writeFile(join(dataDir, 'store.lock'), JSON.stringify({ pid: await exitedPid(), startedAt: 'earlier' }));
    await (await openSqliteStore({ dataDir })).close();
    // A container's pid 1 restarted after kill -9 finds its own pid in the lock of the bridge it replaces.
    await writeFile(join(dataDir, 'store.lock'), JSON.stringify({ pid: process.pid, startedAt: 'earlier' }));
    await (await openSqliteStore({ dataDir })).close();
  });
});
