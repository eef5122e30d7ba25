import { createMemorySqlStore } from '../../../src/storage/sql-store/open-sql-store.js';
import { describeStoreContract } from '../store-contract.js';

describeStoreContract('the SQL store on an in-memory SQLite database', async (options) => {
  const store = createMemorySqlStore(options);
  return { store, cleanup: () => store.close() };
});
