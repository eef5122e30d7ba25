import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/storage/sqlite/open-sqlite-store.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('the SQLite store', async (options) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-contract-'));
  let store = await openSqliteStore({ ...options, dataDir });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await openSqliteStore({ ...options, dataDir });
      return store;
    },
    cleanup: async () => {
      await store.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
