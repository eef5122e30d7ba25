import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/sqlite/open-sqlite-store.js';
import { sqliteDriver } from '../../src/storage/sql-store/sql-driver.js';
import { openSqlStore } from '../../src/storage/sql-store/open-sql-store.js';
import { resolveStoreOptions } from '../../src/storage/store-options.js';
import { T0, conversation } from './store-contract.js';

/** A store on a real SQLite database whose next COMMIT fails once when asked (a full disk, an I/O error). */
async function storeWithFaultyCommit() {
  const db = await openDatabase(':memory:');
  const driver = sqliteDriver(db, async () => {}, false);
  let fail = false;
  const commit = driver.commit.bind(driver);
  driver.commit = () => {
    if (fail) {
      fail = false;
      throw new Error('disk I/O error');
    }
    return commit();
  };
  const store = await openSqlStore(driver, resolveStoreOptions({ clock: () => T0 }, 0), 'the test store');
  return {
    store,
    db,
    failNextCommit: () => {
      fail = true;
    },
  };
}

describe('the SQL store after a failed commit', () => {
  it('fails the next flush when a decision applied before it was rolled back, so its effects are never performed', async () => {
    const { store, failNextCommit } = await storeWithFaultyCommit();
    try {
      await store.saveConversation(conversation('svc-1'));
      await store.flush();
      failNextCommit();
      // The worker applies its decision, then (after other awaits, in which the queued commit runs and fails) flushes.
      await store.recordDecision(
        {
          contactKey: 'svc-1',
          decidedKey: 'svc-1:decision',
          update: (current) => (current ? { ...current, updatedAt: T0 + 1 } : current),
          effects: [{ key: 'svc-1:reply', kind: 'reply', payload: { text: 'hi' } }],
        },
        { wait: 'applied' },
      );
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(await store.getEffect('svc-1:reply')).toBeUndefined();
      await expect(store.flush()).rejects.toMatchObject({ code: 'io' });
      // Told once: the store goes on, and a decision taken again commits.
      await expect(store.flush()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('counts again from its rows and still writes a new database its meta row when the first commit rolls back', async () => {
    const { store, failNextCommit } = await storeWithFaultyCommit();
    try {
      failNextCommit();
      await store.enqueueEffect({ key: 'k1', kind: 'reply', contactKey: 'svc-1', payload: { text: 'hi' } }).catch(() => {});
      expect(store.stats().pendingEffects).toBe(0);
      expect((await store.getMeta()).createdAt).toBe(T0);
      await store.enqueueEffect({ key: 'k2', kind: 'reply', contactKey: 'svc-1', payload: { text: 'hi' } });
      await store.flush().catch(() => {});
      expect(store.stats().pendingEffects).toBe(1);
      expect((await store.setMeta({ values: { a: 1 } })).values).toEqual({ a: 1 });
    } finally {
      await store.close();
    }
  });

  it('counts an effect given up and then retried as pending again', async () => {
    const { store } = await storeWithFaultyCommit();
    try {
      await store.enqueueEffect({ key: 'k1', kind: 'reply', contactKey: 'svc-1', payload: { text: 'hi' } });
      await store.failEffect('k1', 'refused');
      expect(store.stats().pendingEffects).toBe(0);
      await store.failEffect('k1', 'refused', T0 + 60_000);
      expect(store.stats().pendingEffects).toBe((await store.pendingEffects()).length);
    } finally {
      await store.close();
    }
  });

  it("undoes only the writes of a task that fails: the other callers' writes of the same transaction are kept", async () => {
    const { store, db } = await storeWithFaultyCommit();
    try {
      await store.enqueueEffect({ key: 'bad', kind: 'reply', contactKey: 'whatsapp:svc-2', payload: {} });
      await store.flush();
      db.exec(`UPDATE bridge_effects SET payload = '{' WHERE key = 'bad'`);
      // In one turn, one transaction: a save, a decision that fails on a row that does not parse after writing its
      // conversation, and an update whose function throws.
      const saved = store.saveConversation(conversation('svc-1'));
      const decided = store.recordDecision({
        contactKey: 'whatsapp:svc-2',
        decidedKey: 'svc-2:decision',
        update: () => conversation('svc-2'),
        effects: [{ key: 'bad', kind: 'reply', payload: {} }],
      });
      const thrown = store.updateConversation('whatsapp:svc-1', () => {
        throw new Error('a bug of the caller');
      });
      await saved;
      await expect(decided).rejects.toThrow();
      await expect(thrown).rejects.toThrow('a bug of the caller');
      await expect(store.flush()).resolves.toBeUndefined();
      expect(await store.getConversation('whatsapp:svc-1')).toEqual(conversation('svc-1'));
      expect(await store.getConversation('whatsapp:svc-2')).toBeUndefined();
      expect(await store.getEffect('svc-2:decision')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('leaves nothing of a failing task that opened the transaction, and the next tasks commit', async () => {
    const { store, db } = await storeWithFaultyCommit();
    try {
      await store.enqueueEffect({ key: 'bad', kind: 'reply', contactKey: 'whatsapp:svc-2', payload: {} });
      await store.flush();
      db.exec(`UPDATE bridge_effects SET payload = '{' WHERE key = 'bad'`);
      // Nothing open: the decision's conversation write opens the transaction, then its known effect does not parse.
      const decided = store.recordDecision({
        contactKey: 'whatsapp:svc-2',
        decidedKey: 'svc-2:decision',
        update: () => conversation('svc-2'),
        effects: [{ key: 'bad', kind: 'reply', payload: {} }],
      });
      await expect(decided).rejects.toThrow();
      expect(await store.getConversation('whatsapp:svc-2')).toBeUndefined();
      await store.saveConversation(conversation('svc-1'));
      await expect(store.flush()).resolves.toBeUndefined();
      expect(await store.getConversation('whatsapp:svc-1')).toEqual(conversation('svc-1'));
      expect(await store.getConversation('whatsapp:svc-2')).toBeUndefined();
      expect(await store.getEffect('svc-2:decision')).toBeUndefined();
      expect(store.stats().pendingEffects).toBe(1);
      await store.enqueueEffect({ key: 'k2', kind: 'reply', contactKey: 'svc-1', payload: { text: 'hi' } });
      expect(store.stats().pendingEffects).toBe(2);
    } finally {
      await store.close();
    }
  });
});
