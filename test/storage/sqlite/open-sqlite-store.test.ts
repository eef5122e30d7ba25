import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLITE_FILE, openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { T0, conversation, mention } from '../store-contract.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function dataDir(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'sqlite-store-'));
  dirs.push(parent);
  return join(parent, 'data');
}

describe('the SQLite store', () => {
  it('keeps everything in one bridge.db in WAL mode, private to its user', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    await store.recordInbound(mention('1'));
    await store.close();
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, SQLITE_FILE))).mode & 0o777).toBe(0o600);
    const db = new DatabaseSync(join(dir, SQLITE_FILE));
    try {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(db.prepare('PRAGMA page_size').get()).toEqual({ page_size: 1024 });
      expect(db.prepare('SELECT version FROM bridge_schema').all()).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
      ]);
    } finally {
      db.close();
    }
  });

  it('gives back after a reopen what it acknowledged before the close', async () => {
    const dir = await dataDir();
    const first = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    await first.recordInbound(mention('1'));
    await first.saveConversation(conversation('svc-1'));
    await first.enqueueEffect({ key: 'k1', kind: 'reply', contactKey: 'svc-1', payload: { text: 'hi' } });
    await first.close();
    const again = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await again.hasSeen(mention('1').topicId, '1')).toBe(true);
      expect((await again.getConversation('whatsapp:svc-1'))?.serviceId).toBe('svc-1');
      expect((await again.getEffect('k1'))?.status).toBe('pending');
    } finally {
      await again.close();
    }
  });

  it('refuses a second open of the same directory while the first is open', async () => {
    const dir = await dataDir();
    const first = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      await expect(openSqliteStore({ dataDir: dir, clock: () => T0 })).rejects.toMatchObject({ code: 'locked' });
    } finally {
      await first.close();
    }
  });

  it('refuses a database written by a newer release and leaves it as it is', async () => {
    const dir = await dataDir();
    await (await openSqliteStore({ dataDir: dir, clock: () => T0 })).close();
    const db = new DatabaseSync(join(dir, SQLITE_FILE));
    db.exec('INSERT INTO bridge_schema (version) VALUES (99)');
    db.close();
    await expect(openSqliteStore({ dataDir: dir, clock: () => T0 })).rejects.toMatchObject({ code: 'schema' });
  });
});
