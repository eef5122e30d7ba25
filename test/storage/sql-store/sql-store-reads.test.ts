import { describe, expect, it } from 'vitest';
import { sqliteDriver } from '../../../src/storage/sql-store/sql-driver.js';
import type { SqlValue } from '../../../src/storage/sql-store/sql-driver.js';
import { openSqlStore } from '../../../src/storage/sql-store/open-sql-store.js';
import { openDatabase } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { resolveStoreOptions } from '../../../src/storage/store-options.js';
import { T0, conversation } from '../store-contract.js';

/** A store on an in-memory SQLite database that logs every read it makes, with the rows it got. */
async function storeWithReadLog() {
  const db = await openDatabase(':memory:');
  const driver = sqliteDriver(db, async () => {}, false);
  const reads: Array<{ sql: string; values: readonly SqlValue[]; rows: number }> = [];
  const all = driver.all.bind(driver);
  driver.all = <R extends object>(sql: string, values: readonly SqlValue[] = []) => {
    const rows = all<R>(sql, values) as R[];
    reads.push({ sql, values, rows: rows.length });
    return rows;
  };
  const store = await openSqlStore(driver, resolveStoreOptions({ clock: () => T0 }, 0), 'the test store');
  return { store, db, reads };
}

describe('the SQL store reads only what it needs', () => {
  it('reads the decided key of a decision once', async () => {
    const { store, reads } = await storeWithReadLog();
    try {
      reads.length = 0;
      await store.recordDecision({ contactKey: 'whatsapp:svc-1', decidedKey: 'svc-1:decision', update: () => undefined, effects: [] });
      expect(reads.filter((r) => r.values.includes('svc-1:decision'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('saves a conversation it has at hand without reading its transcript rows again', async () => {
    const { store, reads } = await storeWithReadLog();
    try {
      await store.saveConversation(conversation('svc-1'));
      reads.length = 0;
      await store.saveConversation(conversation('svc-1', { updatedAt: T0 + 1 }));
      expect(reads.filter((r) => r.sql.includes('bridge_transcript'))).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('lists the latest audit entries without reading every audit row', async () => {
    const { store, reads } = await storeWithReadLog();
    try {
      for (let i = 0; i < 500; i += 1) await store.audit({ at: T0 + i, actor: 'test', action: 'note', subject: `s${i}` });
      reads.length = 0;
      expect((await store.listAudit({ limit: 3 })).map((e) => e.subject)).toEqual(['s497', 's498', 's499']);
      expect((await store.listAudit()).map((e) => e.subject)).toEqual(Array.from({ length: 100 }, (_, i) => `s${400 + i}`));
      expect(reads.reduce((sum, r) => sum + r.rows, 0)).toBeLessThanOrEqual(200);
      // A date filter is in the entries' JSON: the rows are read until enough match.
      expect((await store.listAudit({ since: T0 + 498 })).map((e) => e.subject)).toEqual(['s498', 's499']);
    } finally {
      await store.close();
    }
  });

  it('counts only the conversations it archived', async () => {
    const { store, db } = await storeWithReadLog();
    try {
      await store.saveConversation(conversation('svc-1'));
      await store.flush();
      // A live row without its record (written by hand, or damaged) is not archived, and not counted.
      db.exec(`INSERT INTO bridge_conversations (key, owner, updated_at) VALUES ('whatsapp:svc-2', 'bot', ${T0})`);
      expect(await store.archiveInactive(T0 + 1)).toBe(1);
    } finally {
      await store.close();
    }
  });
});
