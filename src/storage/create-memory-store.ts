import { openDatabase } from './sqlite/open-sqlite-store.js';
import { SqlitePersistence } from './sqlite/sqlite-persistence.js';
import { StoreCore } from './store-core.js';
import { resolveStoreOptions } from './store-options.js';
import type { StoreOptions } from './store-options.js';
import type { Store } from './store.js';

/**
 * The SQLite store on a database in memory (`:memory:`: no file, no lock), so tests and benches run the same code
 * path as the embedded store. Nothing survives the process.
 */
export function createMemoryStore(options: StoreOptions = {}): Store {
  const resolved = resolveStoreOptions(options, 0);
  const db = openDatabase(':memory:');
  const persistence = new SqlitePersistence(db, resolved.logger, async () => db.close());
  return new StoreCore(persistence.load(resolved.clock()).state, persistence, resolved);
}
