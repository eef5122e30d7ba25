import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/sqlite/open-sqlite-store.js';
import { sqliteDriver } from '../../src/storage/sql-store/sql-driver.js';
import { openSqlStore } from '../../src/storage/sql-store/open-sql-store.js';
import { resolveStoreOptions } from '../../src/storage/store-options.js';
import { T0, conversation } from './store-contract.js';

describe('the SQL store after a failed commit', () => {
  it('fails the next flush when a decision applied before it was rolled back, so its effects are never performed', async () => {
    // A real SQLite database whose next COMMIT fails once (a full disk, an I/O error): the fault, not a fake store.
    const driver = sqliteDriver(openDatabase(':memory:'), async () => {}, false);
    let failNextCommit = false;
    const commit = driver.commit.bind(driver);
    driver.commit = () => {
      if (failNextCommit) {
        failNextCommit = false;
        throw new Error('disk I/O error');
      }
      return commit();
    };
    const store = await openSqlStore(driver, resolveStoreOptions({ clock: () => T0 }, 0), 'the test store');
    try {
      await store.saveConversation(conversation('svc-1'));
      await store.flush();
      failNextCommit = true;
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
});
