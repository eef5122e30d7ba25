import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cutToSyncRecord, openFileStore } from '../../src/storage/index.js';
import type { Store } from '../../src/storage/index.js';
import { killCopy, settledFlag, watchSyncs } from './crash-helpers.js';
import type { SyncWatch } from './crash-helpers.js';
import { conversation, mention } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The power-loss row of the crash matrix (src/storage/README.md): the store's own sync record
// (BRIDGE_DEBUG_SYNC_RECORD) takes a kill -9's data directory to what a power cut would have kept, and
// everything a caller was told is durable must still be there.
describe('power loss at the point the sync record names', () => {
  const tempDir = useTempDirs();
  const open: Store[] = [];
  let watch: SyncWatch;
  beforeEach(async () => {
    watch = await watchSyncs(await tempDir());
  });
  afterEach(async () => {
    watch.releaseHeld();
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
  });

  async function openStore(dataDir: string): Promise<Store> {
    const store = await openFileStore({ dataDir, debugSyncRecord: true });
    open.push(store);
    return store;
  }

  /** The data directory as a kill -9 right now leaves it, then cut back as a power cut would. */
  async function powerCut(dataDir: string): Promise<string> {
    const copy = await killCopy(dataDir, await tempDir());
    await cutToSyncRecord(copy);
    return copy;
  }

  it('a record whose sync has not returned is not in the sync record, so a power cut drops it', async () => {
    const dataDir = await tempDir();
    const store = await openStore(dataDir);
    await store.recordInbound(mention('1'));
    const held = watch.holdNext(new RegExp(`^${escapeRegExp(dataDir)}/journal-\\d+\\.jsonl$`));
    const recorded = store.recordInbound(mention('2'));
    const flag = settledFlag(recorded);
    await held;
    // The append is in the file (kill -9 keeps it) but its sync has not returned.
    const killed = await killCopy(dataDir, await tempDir());
    expect((await openAndList(killed)).sort()).toEqual(['1', '2']);
    const cut = await openAndList(await powerCut(dataDir));
    expect(flag.settled).toBe(false);
    expect(cut).toEqual(['1']);
    watch.releaseHeld();
    expect(await recorded).toBe(true);
    expect((await openAndList(await powerCut(dataDir))).sort()).toEqual(['1', '2']);
    // Private like every file of the store.
    expect((await stat(join(dataDir, 'debug-sync-record.json'))).mode & 0o777).toBe(0o600);
  });

  async function openAndList(dataDir: string): Promise<string[]> {
    const store = await openFileStore({ dataDir });
    try {
      return (await store.pendingInbound()).map((m) => m.id);
    } finally {
      await store.close();
    }
  }

  it('every method whose promise resolved is still there after a power cut at any journal sync', async () => {
    const dataDir = await tempDir();
    const store = await openStore(dataDir);
    const journalSync = new RegExp(`^${escapeRegExp(dataDir)}/journal-\\d+\\.jsonl$`);
    /** Checks of what was acknowledged, each added when its promise resolved. */
    const durable: Array<{ what: string; holds: (s: Store) => Promise<boolean> }> = [];
    const work: Array<Promise<unknown>> = [];
    const launch = (i: number) => {
      const id = String(i);
      work.push(
        store.recordInbound(mention(id)).then(() => {
          durable.push({ what: `inbound ${id}`, holds: async (s) => s.hasSeen('2001', id) });
        }),
      );
      work.push(
        store.enqueueEffect({ key: `${id}:reply`, kind: 'reply', contactKey: 'whatsapp:32470000001', payload: { text: id } }).then(() => {
          durable.push({ what: `effect ${id}`, holds: async (s) => (await s.getEffect(`${id}:reply`)) !== undefined });
        }),
      );
      // Not durable on return: durable once a flush after them resolved.
      const saved = Promise.all([store.saveConversation(conversation(id)), store.setCursor(`topic-${id}`, `c${id}`)]);
      work.push(
        saved
          .then(() => store.flush())
          .then(() => {
            durable.push({
              what: `conversation and cursor ${id}`,
              holds: async (s) =>
                (await s.getConversation(`whatsapp:${id}`)) !== undefined && (await s.getCursor(`topic-${id}`)) === `c${id}`,
            });
          }),
      );
    };
    let next = 0;
    for (let cut = 0; cut < 6; cut++) {
      for (let i = 0; i < 5; i++) {
        next += 1;
        launch(next);
      }
      const held = watch.holdNext(journalSync);
      await held;
      const acknowledged = [...durable];
      // Never more than the syncs that really returned (watched by the test itself).
      const recordText = await readFile(join(dataDir, 'debug-sync-record.json'), 'utf8').catch(() => undefined);
      if (recordText !== undefined) {
        const record = JSON.parse(recordText) as { journal: string; length: number };
        const info = await stat(join(dataDir, record.journal));
        expect(record.length).toBeLessThanOrEqual(watch.synced.get(`${info.dev}:${info.ino}`) ?? 0);
      }
      const copy = await powerCut(dataDir);
      const reopened = await openFileStore({ dataDir: copy });
      try {
        for (const { what, holds } of acknowledged) expect(await holds(reopened), `${what} after cut ${cut}`).toBe(true);
      } finally {
        await reopened.close();
      }
      watch.releaseHeld();
    }
    await Promise.all(work);
    expect(durable.length).toBe(next * 3);
  });

  it('a snapshot whose rename was not synced is undone, and nothing acknowledged is lost', async () => {
    const dataDir = await tempDir();
    const first = await openStore(dataDir);
    await first.recordInbound(mention('1'));
    await first.setCursor('2001', 'c1');
    await first.close();
    const coreBefore = await readFile(join(dataDir, 'store.json'), 'utf8');
    const store = await openStore(dataDir);
    await store.recordInbound(mention('2'));
    await store.saveConversation(conversation('7'));
    await store.setCursor('2001', 'c2');
    await store.flush();
    // The close's snapshot: its core renamed, the directory sync that makes the rename durable held.
    const held = watch.holdNext(new RegExp(`^${escapeRegExp(dataDir)}$`));
    const closing = store.close();
    await held;
    expect(await readFile(join(dataDir, 'store.json'), 'utf8')).not.toBe(coreBefore);
    const copy = await killCopy(dataDir, await tempDir());
    expect(await cutToSyncRecord(copy)).toMatchObject({ coreRenameUndone: true });
    expect(await readFile(join(copy, 'store.json'), 'utf8')).toBe(coreBefore);
    const reopened = await openFileStore({ dataDir: copy });
    try {
      expect((await reopened.pendingInbound()).map((m) => m.id)).toEqual(['1', '2']);
      expect(await reopened.getConversation('whatsapp:7')).toEqual(conversation('7'));
      expect(await reopened.getCursor('2001')).toBe('c2');
    } finally {
      await reopened.close();
    }
    watch.releaseHeld();
    await closing;
    // Once the rename is synced there is nothing to undo.
    const after = await killCopy(dataDir, await tempDir());
    expect(await cutToSyncRecord(after)).toEqual({ journalBytes: 0, coreRenameUndone: false });
    expect(await readdir(after)).not.toContain('store.json.before-rename');
  });

  it('writes no sync record unless asked to', async () => {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir });
    open.push(store);
    await store.recordInbound(mention('1'));
    expect(await readdir(dataDir)).not.toContain('debug-sync-record.json');
  });
});
