import { openDatabase } from '../sqlite/open-sqlite-store.js';
import { resolveStoreOptions } from '../store-options.js';
import type { ResolvedStoreOptions, StoreOptions } from '../store-options.js';
import type { Store } from '../store.js';
import { moveOlderRows } from './legacy-rows.js';
import type { SqlDriver } from './sql-driver.js';
import { sqliteDriver } from './sql-driver.js';
import { SqlSession } from './sql-session.js';
import { SqlStore } from './sql-store.js';

/** The store over a connection whose schema is applied: rows of an older layout moved first, then opened. */
export async function openSqlStore(driver: SqlDriver, options: ResolvedStoreOptions, where: string): Promise<Store> {
  const session = new SqlSession(driver, options.writeIntervalMs, options.logger);
  if (await moveOlderRows(session, where, options.clock())) options.logger.info({}, `${where}: rows of the older layout moved`);
  const store = new SqlStore(session, options);
  await store.ready;
  return store;
}

/** The same store on an in-memory SQLite database: for tests and the demo. Nothing survives the process. */
export function createMemorySqlStore(options: StoreOptions = {}): Store {
  const resolved = resolveStoreOptions(options, 0);
  const store = new SqlStore(
    new SqlSession(
      sqliteDriver(openDatabase(':memory:'), async () => {}, false),
      0,
      resolved.logger,
    ),
    resolved,
  );
  store.ready.catch((error: unknown) => resolved.logger.error({ err: String(error) }, 'the memory store could not start'));
  return store;
}
