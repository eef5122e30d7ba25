import { spawn } from 'node:child_process';
import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStoreError, openSqliteStore } from '../../src/storage/index.js';
import { processIdentity } from '../../src/storage/lock-file.js';
import { DAY_MS } from '../../src/storage/store-options.js';
import { T0, conversation, mention } from './store-contract.js';
import { recordingLogger, useTempDirs } from './test-dirs.js';

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

describe('one process per data directory, and the lock after a container restart', () => {
  const tempDir = useTempDirs();

  it('refuses a second open of the same directory, naming it and the pid holding it', async () => {
    const dataDir = await tempDir();
    const first = await openSqliteStore({ dataDir });
    const error = await refusal(openSqliteStore({ dataDir }));
    expect(isStoreError(error, 'locked')).toBe(true);
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(String(process.pid));
    await first.close();
    await (await openSqliteStore({ dataDir })).close();
  });

  it('takes over a lock whose process is dead, with a log line', async () => {
    const dataDir = await tempDir();
    const deadPid = await exitedPid();
    await writeFile(join(dataDir, 'store.lock'), JSON.stringify({ pid: deadPid, startedAt: 'earlier' }));
    const { lines, logger } = recordingLogger();
    const store = await openSqliteStore({ dataDir, logger });
    expect(lines.some((l) => l.level === 'warn' && l.message.includes(String(deadPid)))).toBe(true);
    expect(JSON.parse(await readFile(join(dataDir, 'store.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await store.close();
  });

  it('refuses a lock file that names no process instead of guessing', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'store.lock'), '');
    const error = await refusal(openSqliteStore({ dataDir }));
    expect(isStoreError(error, 'locked')).toBe(true);
    expect(error.message).toContain('store.lock');
  });

  it('takes over a lock left by "pid 1" when our own pid now belongs to a later start', async () => {
    const self = await processIdentity(process.pid);
    expect(self?.startTicks).toBeDefined();
    const dataDir = await tempDir();
    // A killed bridge with our pid (as pid 1 is in every container start) but another start time.
    const earlier = { pid: process.pid, bootId: self?.bootId, startTicks: String(Number(self?.startTicks) - 1), startedAt: 'earlier' };
    await writeFile(join(dataDir, 'store.lock'), JSON.stringify(earlier));
    const { lines, logger } = recordingLogger();
    const store = await openSqliteStore({ dataDir, logger });
    expect(lines.some((l) => l.level === 'warn' && l.message.includes('taking over'))).toBe(true);
    expect(JSON.parse(await readFile(join(dataDir, 'store.lock'), 'utf8'))).toMatchObject({ pid: process.pid, ...self });
    await store.close();
  });

  it('takes over a lock written in an earlier boot', async () => {
    const self = await processIdentity(process.pid);
    const dataDir = await tempDir();
    await writeFile(
      join(dataDir, 'store.lock'),
      JSON.stringify({ pid: process.pid, bootId: 'another-boot', startTicks: self?.startTicks, startedAt: 'x' }),
    );
    await (await openSqliteStore({ dataDir })).close();
  });

  it('still refuses a live holder, in this process or another', async () => {
    const dataDir = await tempDir();
    const first = await openSqliteStore({ dataDir });
    expect(isStoreError(await refusal(openSqliteStore({ dataDir })), 'locked')).toBe(true);
    await first.close();

    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-child.ts'), dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 20_000;
      while (!output.includes('recorded') && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(output).toContain('recorded');
      const error = await refusal(openSqliteStore({ dataDir }));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain(String(child.pid));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  });
});
