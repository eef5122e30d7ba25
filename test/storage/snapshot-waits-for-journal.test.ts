import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileStore, type Store } from '../../src/storage/index.js';
import { SHARDS } from '../../src/storage/hot-state.js';
import { shardFileName, shardOf } from '../../src/storage/sharded-map.js';
import { conversation } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

// A snapshot builds each conversations shard after its cut, so the text may carry a change (a decision's new state)
// whose journal record is not synced yet, while the decision's effects are only in that record. Renamed into place
// before the journal caught up, a power cut would keep the state and lose the effects: the rename waits.
describe('a snapshot and the journal', () => {
  const tempDir = useTempDirs();
  const open: Store[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
  });

  it('renames a conversations shard into place only once the journal holds every change so far', async () => {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir });
    open.push(store);
    const record = conversation('32470000001');
    await store.saveConversation(record);
    await store.flush();
    // The store's group commit, held: the journal has not caught up while it is.
    let asked!: () => void;
    const journalAsked = new Promise<'journal'>((resolve) => (asked = () => resolve('journal')));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const internals = store as unknown as { persistence: { useFlush(f: () => Promise<void>): void }; persistAll(): Promise<void> };
    internals.persistence.useFlush(async () => {
      asked();
      await released;
    });
    const shard = join(dataDir, 'conversations', shardFileName(shardOf(record.key, SHARDS.conversations)));
    const onDisk = () => readFile(shard, 'utf8').catch(() => '');
    const before = await onDisk();
    const snapshot = internals.persistAll().then(() => 'snapshot' as const);
    const first = await Promise.race([journalAsked, snapshot]);
    // The snapshot stopped for the journal, with the shard still as it was.
    expect(first).toBe('journal');
    expect(await onDisk()).toBe(before);
    release();
    await snapshot;
    expect(await onDisk()).toContain(record.key);
  });
});
