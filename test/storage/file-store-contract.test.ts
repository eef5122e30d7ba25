import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore } from '../../src/storage/index.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('the file store', async (options) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-contract-'));
  let store = await openFileStore({ ...options, dataDir });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await openFileStore({ ...options, dataDir });
      return store;
    },
    cleanup: async () => {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});
