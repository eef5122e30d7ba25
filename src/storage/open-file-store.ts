import { FilePersistence } from './file-persistence.js';
import { StoreCore } from './store-core.js';
import { resolveStoreOptions } from './store-options.js';
import type { StoreOptions } from './store-options.js';
import type { Store } from './store.js';

export interface FileStoreOptions extends StoreOptions {
  /** `BRIDGE_DATA_DIR`: created if missing; one process at a time. */
  dataDir: string;
  /**
   * Debug only (`BRIDGE_DEBUG_SYNC_RECORD`): after each sync, write down what a power cut would keep
   * (`sync-record.ts`), for power-loss simulations. Off by default.
   */
  debugSyncRecord?: boolean;
}

// Group commit needs no spacing: a write is one journal append and one fsync, and callers arriving
// meanwhile share the next one.
const DEFAULT_WRITE_INTERVAL_MS = 0;

/**
 * Opens the embedded store in `dataDir`. Rejects with a `StoreError`: `locked` when another live process
 * holds the directory, `corrupt` or `schema` when the file cannot be trusted (it is never overwritten), `io`.
 */
export async function openFileStore(options: FileStoreOptions): Promise<Store> {
  const resolved = resolveStoreOptions(options, DEFAULT_WRITE_INTERVAL_MS);
  const { persistence, state, migrated } = await FilePersistence.open(options.dataDir, resolved, {
    syncRecord: options.debugSyncRecord === true,
  });
  const store = new StoreCore(state, persistence, resolved);
  // A migrated file is rewritten in the new layout at once (its original is kept as a backup).
  if (migrated) await store.persistAll();
  return store;
}
