import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileStore } from '../../../src/storage/open-file-store.js';
import { JOURNAL_BACKUP_DIR } from '../../../src/storage/sqlite/import-journal-dir.js';
import { SQLITE_FILE, openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { T0, conversation, mention } from '../store-contract.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('opening the SQLite store on a directory the journal store wrote', () => {
  it('imports everything once, cold and archived conversations included, and keeps the old files as a backup', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-journal-'));
    dirs.push(dir);
    const clock = { now: T0 };
    // Written by today's journal store; conversations untouched for a minute are left cold (left in its files).
    const old = await openFileStore({ dataDir: dir, clock: () => clock.now, coldAfterMinutes: 1 });
    for (let i = 0; i < 40; i += 1) await old.saveConversation(conversation(`svc-${i}`, { updatedAt: T0 + i }));
    await old.recordInbound(mention('m1'));
    await old.enqueueEffect({ key: 'e1', kind: 'reply', contactKey: 'whatsapp:svc-1', payload: { text: 'hi' } });
    await old.completeEffect('e1', { ok: true });
    await old.enqueueEffect({ key: 'e2', kind: 'reply', contactKey: 'whatsapp:svc-2', payload: { text: 'later' } });
    await old.setCursor('2001', { at: 7 });
    await old.audit({ at: T0, actor: 'ops', action: 'pause', subject: 'bot' });
    clock.now = T0 + 10 * 86_400_000;
    expect(await old.archiveInactive(T0 + 5)).toBeGreaterThan(0);
    const before = await old.listConversations();
    const archivedBefore = await old.getConversation('whatsapp:svc-0');
    await old.close();
    // The old store did leave some cold: the import must read them from its files.
    const peek = await openFileStore({ dataDir: dir, clock: () => clock.now, coldAfterMinutes: 1 });
    expect(peek.stats().coldConversations).toBeGreaterThan(0);
    await peek.close();

    const store = await openSqliteStore({ dataDir: dir, clock: () => clock.now });
    try {
      expect(await store.listConversations()).toEqual(before);
      expect(await store.getConversation('whatsapp:svc-0')).toEqual(archivedBefore);
      expect(await store.hasSeen('2001', 'm1')).toBe(true);
      expect((await store.getEffect('e1'))?.status).toBe('done');
      expect((await store.pendingEffects()).map((effect) => effect.key)).toEqual(['e2']);
      expect(await store.getCursor('2001')).toEqual({ at: 7 });
      expect((await store.listAudit()).map((entry) => entry.action)).toContain('pause');
    } finally {
      await store.close();
    }
    const left = await readdir(dir);
    expect(left).toContain(SQLITE_FILE);
    expect(left).not.toContain('store.json');
    expect(existsSync(join(dir, JOURNAL_BACKUP_DIR, 'store.json'))).toBe(true);

    // Once: a second open reads bridge.db and leaves the backup alone.
    const again = await openSqliteStore({ dataDir: dir, clock: () => clock.now });
    try {
      expect(await again.listConversations()).toEqual(before);
    } finally {
      await again.close();
    }
  });
});
