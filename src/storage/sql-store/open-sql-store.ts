import type { ResolvedStoreOptions } from '../store-options.js';
import { moveOlderRows } from './legacy-rows.js';
import type { SqlDriver } from './sql-driver.js';
import { SqlSession } from './sql-session.js';
import { SqlStore } from './sql-store.js';

/** The store over a connection whose schema is applied: rows of an older layout moved first, then opened. */
export async function openSqlStore(driver: SqlDriver, options: ResolvedStoreOptions, where: string): Promise<SqlStore> {
  const session = new SqlSession(driver, options.writeIntervalMs, options.logger);
  if (await moveOlderRows(session, where, options.clock())) options.logger.info({}, `${where}: rows of the older layout moved`);
  const store = new SqlStore(session, options);
  await store.ready;
  return store;
}
