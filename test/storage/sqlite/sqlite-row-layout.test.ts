import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_TABLE_SQL, schemaSteps } from '../../../src/storage/sql-schema.js';
import { SQLITE_FILE, openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { T0, conversation, mention } from '../store-contract.js';
import { useTempDirs } from '../test-dirs.js';

const dataDir = useTempDirs();

function rows<R>(dir: string, sql: string): R[] {
  const db = new DatabaseSync(join(dir, SQLITE_FILE), { readOnly: true });
  try {
    return db.prepare(sql).all() as R[];
  } finally {
    db.close();
  }
}

/** A database of schema version 1 (a row per shard) in `dir`, open for the test to fill. */
async function versionOneDatabase(dir: string): Promise<DatabaseSync> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(join(dir, SQLITE_FILE));
  db.exec(SCHEMA_TABLE_SQL);
  db.exec(schemaSteps('sqlite').find((step) => step.version === 1)!.sql);
  db.exec('INSERT INTO bridge_schema (version) VALUES (1)');
  return db;
}

describe('the SQLite row layout', () => {
  it('writes a row per conversation, rewrites only the keys a commit changed and deletes the keys gone', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      for (let i = 0; i < 200; i += 1) await store.saveConversation(conversation(`svc-${i}`, { dialog: { pad: 'x'.repeat(400) } }));
      await store.flush();
      expect(rows(dir, 'SELECT count(*) AS n FROM bridge_conversations')).toEqual([{ n: 200 }]);
      const before = store.stats().journalBytes;
      await store.updateConversation('whatsapp:svc-7', (c) => c && { ...c, owner: 'agents', updatedAt: T0 + 1 });
      await store.flush();
      // One conversation's row (about 600 bytes), never a shard of them.
      expect(store.stats().journalBytes - before).toBeLessThan(1500);
      expect(rows(dir, "SELECT owner, updated_at FROM bridge_conversations WHERE key = 'whatsapp:svc-7'")).toEqual([
        { owner: 'agents', updated_at: T0 + 1 },
      ]);
      await store.forgetContact('whatsapp:svc-8');
      expect(rows(dir, "SELECT count(*) AS n FROM bridge_conversations WHERE key = 'whatsapp:svc-8'")).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  });

  it('writes the dialog state of a conversation only when it changed', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      await store.saveConversation(conversation('svc-1', { dialog: { pad: 'x'.repeat(2000) } }));
      await store.flush();
      let before = store.stats().journalBytes;
      await store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, updatedAt: T0 + 1 });
      await store.flush();
      expect(store.stats().journalBytes - before).toBeLessThan(500);
      before = store.stats().journalBytes;
      await store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, dialog: { pad: 'y'.repeat(2000) } });
      await store.flush();
      expect(store.stats().journalBytes - before).toBeGreaterThan(2000);
      expect(rows(dir, "SELECT length(dialog) AS n FROM bridge_conversations WHERE key = 'whatsapp:svc-1'")).toEqual([{ n: 2010 }]);
      expect((await store.getConversation('whatsapp:svc-1'))?.dialog).toEqual({ pad: 'y'.repeat(2000) });
    } finally {
      await store.close();
    }
  });

  it('keeps no conversation in memory: a reopened store answers from the rows, and its counts follow the changes', async () => {
    const dir = await dataDir();
    const total = 1020;
    const first = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    for (let i = 0; i < total; i += 1) await first.saveConversation(conversation(`svc-${i}`));
    await first.close();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await store.countByOwner()).toMatchObject({ bot: total });
      expect((await store.getConversation('whatsapp:svc-3'))?.transcript).toEqual(conversation('svc-3').transcript);
      await store.updateConversation('whatsapp:svc-3', (c) => c && { ...c, owner: 'paused' });
      await store.flush();
      expect(rows(dir, "SELECT owner FROM bridge_conversations WHERE key = 'whatsapp:svc-3'")).toEqual([{ owner: 'paused' }]);
      expect(await store.countByOwner()).toMatchObject({ bot: total - 1, paused: 1 });
      expect((await store.listConversations({ owner: 'paused' })).map((c) => c.key)).toEqual(['whatsapp:svc-3']);
    } finally {
      await store.close();
    }
  });

  it('keeps both changes when two updates of one cold conversation race', async () => {
    const dir = await dataDir();
    const first = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    await first.saveConversation(conversation('svc-1'));
    await first.close();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      const line = (text: string) => ({ at: T0, from: 'bot' as const, text });
      await Promise.all([
        store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, transcript: [...c.transcript, line('a')] }),
        store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, transcript: [...c.transcript, line('b')] }),
      ]);
      expect((await store.getConversation('whatsapp:svc-1'))?.transcript.map((l) => l.text)).toEqual(['hello', 'a', 'b']);
    } finally {
      await store.close();
    }
  });

  it('migrates a version-1 database (a row per shard) to rows per key, and deletes the shard and core rows', async () => {
    const dir = await dataDir();
    const db = await versionOneDatabase(dir);
    const meta = { createdAt: T0, values: {}, nextEscalationSeq: 1, nextEffectSeq: 2 };
    const m = mention('9');
    const core = { schemaVersion: 2, meta, inbox: [m], cursors: {}, escalations: {}, journalSeq: 0 };
    const effect = { key: 'k1', kind: 'reply', contactKey: 'whatsapp:svc-1', payload: {}, seq: 1, status: 'pending' };
    const insertShard = db.prepare('INSERT INTO bridge_shards (tbl, idx, body) VALUES (?, ?, ?)');
    db.prepare('INSERT INTO bridge_core (id, body) VALUES (1, ?)').run(JSON.stringify(core));
    insertShard.run(
      'conversations',
      3,
      `${JSON.stringify(conversation('svc-1'))}\n${JSON.stringify({ archivedKey: 'whatsapp:old', archivedAt: T0 })}\n`,
    );
    insertShard.run('conversations', 4, `${JSON.stringify(conversation('svc-2', { owner: 'agents' }))}\n`);
    insertShard.run('seen', 0, `${JSON.stringify(['2001/9', T0])}\n${JSON.stringify(['2001/1', T0])}\n`);
    insertShard.run('outbox', 0, `${JSON.stringify({ ...effect, attempts: 0, createdAt: T0, updatedAt: T0 })}\n`);
    db.close();

    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    await store.close();
    expect(rows(dir, 'SELECT version FROM bridge_schema ORDER BY version')).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
    ]);
    for (const table of ['bridge_shards', 'bridge_core', 'bridge_outbox']) {
      expect(rows(dir, `SELECT count(*) AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    }
    expect(rows(dir, 'SELECT key, status FROM bridge_effects')).toEqual([{ key: 'k1', status: 'pending' }]);
    expect(rows(dir, 'SELECT ref, key FROM bridge_mentions')).toEqual([{ ref: '2001/9', key: m.key }]);
    expect(rows(dir, 'SELECT key, owner, archived_at FROM bridge_conversations ORDER BY key')).toEqual([
      { key: 'whatsapp:old', owner: null, archived_at: T0 },
      { key: 'whatsapp:svc-1', owner: 'bot', archived_at: null },
      { key: 'whatsapp:svc-2', owner: 'agents', archived_at: null },
    ]);
    const again = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await again.getConversation('whatsapp:svc-1')).toEqual(conversation('svc-1'));
      expect(await again.countByOwner()).toMatchObject({ bot: 1, agents: 1, archived: 1 });
      expect(await again.hasSeen('2001', '1')).toBe(true);
      expect((await again.pendingInbound()).map((p) => p.id)).toEqual(['9']);
      expect((await again.pendingEffects()).map((e) => e.key)).toEqual(['k1']);
    } finally {
      await again.close();
    }
  });
  it('answers for a conversation a later shard of a version-1 database archived as archived, not as the live one an earlier shard held', async () => {
    const dir = await dataDir();
    const db = await versionOneDatabase(dir);
    const insertShard = db.prepare('INSERT INTO bridge_shards (tbl, idx, body) VALUES (?, ?, ?)');
    insertShard.run('conversations', 3, `${JSON.stringify(conversation('svc-1'))}\n`);
    insertShard.run('conversations', 4, `${JSON.stringify({ archivedKey: 'whatsapp:svc-1', archivedAt: T0 })}\n`);
    db.close();

    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      // Archived with no copy in the archive: nothing to give back.
      expect(await store.getConversation('whatsapp:svc-1')).toBeUndefined();
      expect(await store.countByOwner()).toMatchObject({ bot: 0, archived: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('the SQLite transcript rows', () => {
  it('appends an answered message as its new lines, leaving the committed lines as they are', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      await store.saveConversation(conversation('svc-1'));
      await store.flush();
      const before = store.stats().journalBytes;
      const add = (text: string) => ({ at: T0 + 1, from: 'bot' as const, text });
      await store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, transcript: [...c.transcript, add('a'), add('b')] });
      await store.flush();
      expect(rows(dir, "SELECT seq, json_extract(body, '$.text') AS text FROM bridge_transcript ORDER BY seq")).toEqual([
        { seq: 0, text: 'hello' },
        { seq: 1, text: 'a' },
        { seq: 2, text: 'b' },
      ]);
      // The conversation's row without its transcript and two short lines: far less than the record again.
      expect(store.stats().journalBytes - before).toBeLessThan(400);
      await store.forgetContact('whatsapp:svc-1');
      expect(rows(dir, 'SELECT count(*) AS n FROM bridge_transcript')).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  });
});
