import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';
import { T0, conversation } from '../store-contract.js';
import { useTempDirs } from '../test-dirs.js';

const dataDir = useTempDirs();

describe('the SQLite store group commit', () => {
  it('commits the decisions of one turn once, however many callers flush after applying theirs', async () => {
    const store = await openSqliteStore({ dataDir: await dataDir(), clock: () => T0 });
    try {
      const keys = ['svc-1', 'svc-2', 'svc-3', 'svc-4'];
      for (const key of keys) await store.saveConversation(conversation(key));
      await store.flush();
      const before = store.stats().writes;
      // Each worker applies its decision, then flushes before performing its effects; the next worker's decision
      // comes while the first flush waits, in the same turn of the event loop.
      const flushes: Array<Promise<void>> = [];
      for (const key of keys) {
        await store.recordDecision(
          {
            contactKey: key,
            decidedKey: `${key}:decision`,
            update: (current) => (current ? { ...current, updatedAt: T0 + 1 } : current),
            effects: [{ key: `${key}:reply`, kind: 'reply', payload: { text: 'hi' } }],
          },
          { wait: 'applied' },
        );
        flushes.push(store.flush());
      }
      await Promise.all(flushes);
      expect(store.stats().writes - before).toBe(1);
      for (const key of keys) expect((await store.getEffect(`${key}:reply`))?.status).toBe('pending');
    } finally {
      await store.close();
    }
  });
});
