import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_TABLE_SQL, schemaSteps } from '../../../src/storage/sql-schema.js';
import { SQLITE_FILE, openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { T0, conversation, mention } from '../store-contract.js';
import { useTempDirs } from '../test-dirs.js';
import { rows } from './read-rows.js';

const dataDir = useTempDirs();

describe('what a commit of the SQLite store writes', () => {
  it('moves the inbox and the escalations of a version-2 core row to their own rows, in the step that adds them', async () => {
    const dir = await dataDir();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const db = new DatabaseSync(join(dir, SQLITE_FILE));
    db.exec(SCHEMA_TABLE_SQL);
    for (const step of schemaSteps('sqlite').filter((s) => s.version <= 2)) {
      db.exec(step.sql);
      db.prepare('INSERT INTO bridge_schema (version) VALUES (?)').run(step.version);
    }
    const meta = { createdAt: T0, values: {}, nextEscalationSeq: 2, nextEffectSeq: 1 };
    const escalation = {
      ...{ contactKey: 'whatsapp:svc-1', channel: 'whatsapp', serviceId: 'svc-1', reason: 'asked', priority: 'normal', summary: '' },
      ...{ mentionId: '9', topicId: '2001' },
      ...{ id: 'esc-1', status: 'open', createdAt: T0, updatedAt: T0 },
    };
    const core = { schemaVersion: 2, meta, inbox: [mention('9'), mention('10', { topicId: '2002' })], cursors: {}, journalSeq: 0 };
    db.prepare('INSERT INTO bridge_core (id, body) VALUES (1, ?)').run(JSON.stringify({ ...core, escalations: { 'esc-1': escalation } }));
    db.close();

    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect((await store.pendingInbound()).map((m) => `${m.topicId}/${m.id}`)).toEqual(['2001/9', '2002/10']);
      expect((await store.listEscalations()).map((e) => e.id)).toEqual(['esc-1']);
      expect(rows(dir, 'SELECT ref FROM bridge_inbox ORDER BY ref')).toEqual([{ ref: '2001/9' }, { ref: '2002/10' }]);
      expect(rows(dir, 'SELECT id FROM bridge_escalations')).toEqual([{ id: 'esc-1' }]);
      const body = JSON.parse(rows<{ body: string }>(dir, 'SELECT body FROM bridge_core')[0]!.body);
      expect([body.inbox, body.escalations, body.meta.nextEscalationSeq]).toEqual([[], {}, 2]);
      await store.markInboundProcessed('2001', '9');
      await store.updateEscalation('esc-1', { status: 'resolved' });
      await store.flush();
      expect(rows(dir, 'SELECT ref FROM bridge_inbox')).toEqual([{ ref: '2002/10' }]);
      expect(rows(dir, "SELECT body ->> '$.status' AS status FROM bridge_escalations")).toEqual([{ status: 'resolved' }]);
    } finally {
      await store.close();
    }
  });

  it('writes a change of the inbox as that mention row, not the whole inbox again', async () => {
    const store = await openSqliteStore({ dataDir: await dataDir(), clock: () => T0 });
    try {
      for (let i = 0; i < 50; i += 1) await store.recordInbound(mention(`${i}`, { payload: { text: 'x'.repeat(200) } }));
      const before = store.stats().journalBytes;
      await store.recordInbound(mention('99'));
      // One mention (about 120 bytes) and its seen id, not 50 mentions of 300 bytes.
      expect(store.stats().journalBytes - before).toBeLessThan(400);
    } finally {
      await store.close();
    }
  });

  it("writes an effect's status change as its status fields alone, and reads the effect back whole", async () => {
    const dir = await dataDir();
    const first = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    const payload = { text: 'y'.repeat(2000) };
    await first.enqueueEffect({ key: 'e1', kind: 'reply', contactKey: 'whatsapp:svc-1', payload });
    await first.enqueueEffect({ key: 'e2', kind: 'reply', contactKey: 'whatsapp:svc-1', payload });
    await first.failEffect('e2', 'timeout', T0 + 1000);
    await first.flush();
    const before = first.stats().journalBytes;
    await first.completeEffect('e1', { publishedId: 'p1' });
    await first.failEffect('e2', 'timeout again', T0 + 2000);
    await first.flush();
    expect(first.stats().journalBytes - before).toBeLessThan(400);
    await first.close();
    expect(rows(dir, "SELECT key, length(body) > 2000 AS whole, state ->> '$.status' AS status FROM bridge_outbox ORDER BY key")).toEqual([
      { key: 'e1', whole: 1, status: 'done' },
      { key: 'e2', whole: 1, status: 'pending' },
    ]);
    const again = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await again.getEffect('e1')).toMatchObject({ status: 'done', payload: null, attempts: 1, result: { publishedId: 'p1' } });
      const e2 = await again.getEffect('e2');
      expect(e2).toMatchObject({ status: 'pending', payload, attempts: 2, lastError: 'timeout again', retryAt: T0 + 2000 });
      await again.completeEffect('e2');
      expect(await again.getEffect('e2')).not.toHaveProperty('retryAt');
    } finally {
      await again.close();
    }
    const last = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await last.getEffect('e2')).toMatchObject({ status: 'done', payload: null, attempts: 3 });
      expect(await last.getEffect('e2')).not.toHaveProperty('retryAt');
    } finally {
      await last.close();
    }
  });

  it("writes a turn that changes a conversation's dates as its turn column alone, not its dialog and fields again", async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      await store.saveConversation(conversation('svc-1', { contactName: 'n'.repeat(300), dialog: { pad: 'x'.repeat(1000) } }));
      await store.flush();
      const before = store.stats().journalBytes;
      await store.updateConversation('whatsapp:svc-1', (c) => c && { ...c, lastBotReplyAt: T0 + 5, updatedAt: T0 + 5 });
      await store.flush();
      expect(store.stats().journalBytes - before).toBeLessThan(200);
      expect(rows(dir, 'SELECT updated_at FROM bridge_conversations')).toEqual([{ updated_at: T0 + 5 }]);
    } finally {
      await store.close();
    }
    const again = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      expect(await again.getConversation('whatsapp:svc-1')).toMatchObject({ lastBotReplyAt: T0 + 5, dialog: { pad: 'x'.repeat(1000) } });
    } finally {
      await again.close();
    }
  });

  it('commits audit entries with the changes of the same group commit: one transaction, one sync', async () => {
    const store = await openSqliteStore({ dataDir: await dataDir(), clock: () => T0 });
    try {
      const before = store.stats().fsyncs;
      await store.audit({ at: T0, actor: 'bot', action: 'note', subject: 'whatsapp:svc-1' });
      await store.setCursor('2001', { since: 1 });
      await store.flush();
      expect(store.stats().fsyncs - before).toBe(1);
      expect(await store.listAudit()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('deletes transcript lines by date without rewriting the conversations, and reads them back without the lines', async () => {
    const dir = await dataDir();
    const store = await openSqliteStore({ dataDir: dir, clock: () => T0 });
    try {
      const line = (at: number, text: string) => ({ at, from: 'customer' as const, text });
      await store.saveConversation(conversation('svc-1', { transcript: [line(T0 - 10, 'old'), line(T0, 'new')] }));
      await store.saveConversation(conversation('svc-2', { transcript: [line(T0, 'new')] }));
      await store.flush();
      const written = store.stats().journalBytes;
      expect(await store.applyRetention({ transcriptBeforeMs: T0 - 5 })).toMatchObject({ transcriptLines: 1, trimmedConversations: 1 });
      expect(store.stats().journalBytes).toBe(written);
      expect((await store.getConversation('whatsapp:svc-1'))?.transcript.map((l) => l.text)).toEqual(['new']);
      expect(rows(dir, 'SELECT count(*) AS n FROM bridge_transcript')).toEqual([{ n: 2 }]);
    } finally {
      await store.close();
    }
  });
});
