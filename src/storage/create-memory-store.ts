import { emptyHotState } from './hot-state.js';
import { MemoryPersistence } from './memory-persistence.js';
import { StoreCore } from './store-core.js';
import { resolveStoreOptions } from './store-options.js';
import type { StoreOptions } from './store-options.js';
import type { Store } from './store.js';

/** The same store logic kept in memory: for tests and the demo. Nothing survives the process. */
export function createMemoryStore(options: StoreOptions = {}): Store {
  const resolved = resolveStoreOptions(options, 0);
  return new StoreCore(emptyHotState(resolved.clock()), new MemoryPersistence(), resolved);
}
