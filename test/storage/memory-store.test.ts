import { createMemoryStore } from '../../src/storage/index.js';
import { describeStoreContract } from './store-contract.js';

describeStoreContract('the memory store', async (options) => {
  const store = createMemoryStore(options);
  return { store, cleanup: () => store.close() };
});
