import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SQLITE_FILE } from '../../../src/storage/sqlite/open-sqlite-store.js';

/** The rows a query gives on the store's file in `dir`, read on a connection of its own, read-only. */
export function rows<R>(dir: string, sql: string): R[] {
  const db = new DatabaseSync(join(dir, SQLITE_FILE), { readOnly: true });
  try {
    return db.prepare(sql).all() as R[];
  } finally {
    db.close();
  }
}
