import { afterAll } from 'vitest';
import { openPostgresStore } from '../../src/storage/postgres/open-postgres-store.js';
import { startTestPostgres } from './postgres-server.js';
import type { TestPostgres } from './postgres-server.js';
import { describeStoreContract } from './store-contract.js';

let server: Promise<TestPostgres> | undefined;

afterAll(async () => {
  if (server) await (await server).stop();
}, 60_000);

describeStoreContract('the PostgreSQL store', async (options) => {
  server ??= startTestPostgres();
  const databaseUrl = await (await server).createDatabase();
  let store = await openPostgresStore({ ...options, databaseUrl });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await openPostgresStore({ ...options, databaseUrl });
      return store;
    },
    cleanup: () => store.close(),
  };
});
