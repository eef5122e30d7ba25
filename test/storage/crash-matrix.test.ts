import { appendFile, open as openFile, readFile, readdir, truncate, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isStoreError, openFileStore } from '../../src/storage/index.js';
import type { DecisionInput, Store } from '../../src/storage/index.js';
import { killCopy, lastJournalRecord, powerLossCopy, settledFlag, watchSyncs } from './crash-helpers.js';
import type { SyncWatch } from './crash-helpers.js';
import { conversation, mention } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

// The rows of the crash matrix in src/storage/README.md: a decision's durable record (recordInbound,
// enqueueEffect) stopped at each step, and the disk taken as kill -9 and as a power cut leave it.
describe('the crash matrix of the file store', () => {
  const tempDir = useTempDirs();
  const open: Store[] = [];
  let watch: SyncWatch;
  beforeEach(async () => {
    // Before any store opens, so every sync is known.
    watch = await watchSyncs(await tempDir());
  });
  afterEach(async () => {
    watch.releaseHeld();
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).map((store) => store.close().catch(() => undefined)));
  });

  async function reopen(dataDir: string): Promise<Store> {
    const store = await openFileStore({ dataDir });
    open.push(store);
    return store;
  }

  async function started(): Promise<{ dataDir: string; store: Store }> {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir });
    open.push(store);
    // Something durable before the step under test, that every copy must keep.
    await store.recordInbound(mention('1'));
    return { dataDir, store };
  }

  const pendingIds = async (store: Store) => (await store.pendingInbound()).map((m) => m.id);

  it('killed before the append: the caller was not told, and nothing of it is on disk', async () => {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir, writeIntervalMs: 60_000 });
    open.push(store);
    await store.recordInbound(mention('1'));
    // The next group commit is a minute away: the kill comes first.
    const recorded = store.recordInbound(mention('2'));
    const flag = settledFlag(recorded);
    const killed = await reopen(await killCopy(dataDir, await tempDir()));
    expect(flag.settled).toBe(false);
    expect(await killed.hasSeen('2001', '2')).toBe(false);
  });

  it('killed between append and fsync: not yet acknowledged; kept by kill -9, dropped by a power cut', async () => {
    const { dataDir, store } = await started();
    const held = watch.holdNext(/journal-\d+\.jsonl$/);
    const recorded = store.recordInbound(mention('2'));
    const flag = settledFlag(recorded);
    await held;
    expect(flag.settled).toBe(false);
    const afterKill = await reopen(await killCopy(dataDir, await tempDir()));
    expect(await pendingIds(afterKill)).toEqual(['1', '2']);
    const afterPowerCut = await reopen(await powerLossCopy(dataDir, await tempDir(), watch));
    expect(await pendingIds(afterPowerCut)).toEqual(['1']);
    watch.releaseHeld();
    expect(await recorded).toBe(true);
  });

  it('after the fsync: acknowledged, and kept by kill -9 and by a power cut', async () => {
    const { dataDir, store } = await started();
    await store.enqueueEffect({ key: '2:reply', kind: 'reply', contactKey: 'whatsapp:32470000001', payload: { text: 'hi' } });
    const afterKill = await reopen(await killCopy(dataDir, await tempDir()));
    expect((await afterKill.pendingEffects()).map((e) => e.key)).toEqual(['2:reply']);
    const afterPowerCut = await reopen(await powerLossCopy(dataDir, await tempDir(), watch));
    expect((await afterPowerCut.pendingEffects()).map((e) => e.key)).toEqual(['2:reply']);
  });

  it('a torn last line (killed during the append) is dropped, and the journal goes on after it', async () => {
    const { dataDir, store } = await started();
    const copy = await killCopy(dataDir, await tempDir());
    const [journal] = (await readdir(copy)).filter((name) => name.startsWith('journal-'));
    await appendFile(join(copy, journal!), '{"n":99,"inbox":[["2",{"id":"2","topicId":"20');
    const first = await reopen(copy);
    expect(await pendingIds(first)).toEqual(['1']);
    expect(await first.recordInbound(mention('3'))).toBe(true);
    await first.close();
    const second = await reopen(copy);
    expect(await pendingIds(second)).toEqual(['1', '3']);
    await store.flush();
  });

  it('a failed append (disk full half-way through the line) is cut off, so the records after it stay readable', async () => {
    const { dataDir, store } = await started();
    const probe = await openFile(join(dataDir, '.probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close(); // only its prototype was wanted: left open, node closed it at GC with a warning
    const write = proto.write as (this: FileHandle, ...args: unknown[]) => Promise<unknown>;
    let failed = false;
    vi.spyOn(proto, 'write').mockImplementation(async function (this: FileHandle, ...args: unknown[]) {
      const [buffer, offset, length] = args as [Buffer, number, number];
      if (!failed && Buffer.isBuffer(buffer) && buffer.includes('"2"')) {
        failed = true;
        await write.call(this, buffer, offset, Math.floor(length / 2));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return write.apply(this, args);
    } as typeof proto.write);
    await expect(store.recordInbound(mention('2'))).rejects.toThrow(/no space left/);
    // The disk has room again: the change goes out with the next commit, after a clean line.
    await store.flush();
    await store.enqueueEffect({ key: '3:reply', kind: 'reply', contactKey: 'whatsapp:32470000001', payload: { text: 'hi' } });
    const afterKill = await reopen(await killCopy(dataDir, await tempDir()));
    expect(await pendingIds(afterKill)).toEqual(['1', '2']);
    expect((await afterKill.pendingEffects()).map((e) => e.key)).toEqual(['3:reply']);
  });

  it('damage before the last line refuses the start, naming file and line but never the content', async () => {
    const { dataDir } = await started();
    const copy = await killCopy(dataDir, await tempDir());
    const [journal] = (await readdir(copy)).filter((name) => name.startsWith('journal-'));
    const path = join(copy, journal!);
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    await writeFile(path, `{"n":0,"inbox":[["x",{"text":"CUSTOMER SECRET"}\n${lines.join('\n')}\n`);
    const error = await openFileStore({ dataDir: copy }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(isStoreError(error, 'corrupt')).toBe(true);
    expect(error?.message).toContain(`${path} line 1`);
    expect(error?.message).not.toContain('SECRET');

    await writeFile(path, `{"n":1,"inbox":[["x",{"text":"CUSTOMER SECRET"}]]}\n${lines.join('\n')}\n`);
    const invalid = await openFileStore({ dataDir: copy }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(isStoreError(invalid, 'schema')).toBe(true);
    expect(invalid?.message).toContain(`${path} line 1`);
    expect(invalid?.message).not.toContain('SECRET');
  });

  // A decision (recordDecision): the conversation's new state and its effects are one journal record.
  const CONTACT = 'whatsapp:32470000001';
  const decision: DecisionInput = {
    contactKey: CONTACT,
    decidedKey: '2001/2:decision',
    update: (c) => c && { ...c, dialog: { step: 'asked' }, transcript: [...c.transcript, { at: 1, from: 'bot', text: 'Hi!' }] },
    effects: [
      { key: '2001/2:1:reply', kind: 'reply', payload: { text: 'Hi!' } },
      { key: '2001/2:2:escalate', kind: 'escalate', payload: { reason: 'asked' } },
    ],
  };
  async function decisionState(store: Store) {
    return {
      dialog: (await store.getConversation(CONTACT))?.dialog,
      pending: (await store.pendingEffects()).map((e) => e.key),
      decided: (await store.getEffect('2001/2:decision'))?.status,
    };
  }
  const before = { dialog: undefined, pending: [], decided: undefined };
  const after = { dialog: { step: 'asked' }, pending: ['2001/2:1:reply', '2001/2:2:escalate'], decided: 'done' };
  async function startedWithConversation(): Promise<{ dataDir: string; store: Store }> {
    const begun = await started();
    await begun.store.saveConversation(conversation('32470000001'));
    await begun.store.flush();
    return begun;
  }

  it('a decision is one journal record: torn, it loses the new state and the effects together', async () => {
    const { dataDir, store } = await startedWithConversation();
    await store.recordDecision(decision);
    const copy = await killCopy(dataDir, await tempDir());
    const { path, text, last, record } = await lastJournalRecord(copy);
    expect(record.conversations.map(([key]) => key)).toEqual([CONTACT]);
    expect(record.outbox.map(([key]) => key).sort()).toEqual(['2001/2:1:reply', '2001/2:2:escalate', '2001/2:decision']);
    // Killed half-way through that append: the line is torn wherever it was cut.
    await truncate(path, Buffer.byteLength(text) - 1 - Math.floor(Buffer.byteLength(last) / 2));
    const torn = await reopen(copy);
    expect(await decisionState(torn)).toEqual(before);
    expect((await torn.getConversation(CONTACT))?.transcript.map((l) => l.text)).toEqual(['hello']);
  });

  it('a decision synced is kept whole by kill -9 and by a power cut; between append and sync, a power cut drops it whole', async () => {
    const { dataDir, store } = await startedWithConversation();
    const held = watch.holdNext(/journal-\d+\.jsonl$/);
    const recording = store.recordDecision(decision);
    const flag = settledFlag(recording);
    await held;
    expect(flag.settled).toBe(false);
    expect(await decisionState(await reopen(await killCopy(dataDir, await tempDir())))).toEqual(after);
    expect(await decisionState(await reopen(await powerLossCopy(dataDir, await tempDir(), watch)))).toEqual(before);
    watch.releaseHeld();
    expect((await recording).recorded).toBe(true);
    expect(await decisionState(await reopen(await killCopy(dataDir, await tempDir())))).toEqual(after);
    expect(await decisionState(await reopen(await powerLossCopy(dataDir, await tempDir(), watch)))).toEqual(after);
  });

  it('a snapshot stopped before its rename loses nothing: the old snapshot and the journal behind it are kept', async () => {
    const { dataDir, store } = await started();
    await store.saveConversation(conversation('7'));
    await store.setCursor('2001', 'c2');
    await store.flush();
    const held = watch.holdNext(/store\.json\.next$/);
    const closing = store.close();
    await held;
    for (const copy of [await killCopy(dataDir, await tempDir()), await powerLossCopy(dataDir, await tempDir(), watch)]) {
      const names = await readdir(copy);
      expect(names).toContain('store.json.next');
      const reopened = await reopen(copy);
      expect(await pendingIds(reopened)).toEqual(['1']);
      expect(await reopened.getConversation('whatsapp:7')).toEqual(conversation('7'));
      expect(await reopened.getCursor('2001')).toBe('c2');
      expect(await readdir(copy)).not.toContain('store.json.next');
    }
    watch.releaseHeld();
    await closing;
  });
});
