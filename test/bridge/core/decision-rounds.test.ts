import { readFile, readdir, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/bot/index.js';
import { commitDecision } from '../../../src/bridge/run-brain.js';
import { openFileStore, type ConversationRecord, type Store } from '../../../src/storage/index.js';
import { killCopy, lastJournalRecord } from '../../storage/crash-helpers.js';
import { useTempDirs } from '../../storage/test-dirs.js';
import { FakeClock, KEY, TOPIC, coreWorld, customerWrites, drain, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
const stores: Store[] = [];
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
});

/** Counts the decisions recorded, and the mention ids the dialog held when each one was decided. */
function watchDecisions(store: Store): { seen: string[][] } {
  const seen: string[][] = [];
  const record = store.recordDecision.bind(store);
  store.recordDecision = (decision, options) =>
    record(
      {
        ...decision,
        update: (c) => {
          seen.push([...((c?.dialog as { recentMentionIds?: string[] } | undefined)?.recentMentionIds ?? [])]);
          return decision.update(c);
        },
      },
      options,
    );
  return { seen };
}

const fromAndText = (c: ConversationRecord | undefined) => c?.transcript.map((l) => `${l.from}:${l.mentionId ?? l.text}`);
const recent = (c: ConversationRecord | undefined) => (c?.dialog as { recentMentionIds?: string[] } | undefined)?.recentMentionIds;

describe('each decision reads the dialog from the store; the worker carries no state between them', () => {
  it('a round of several mentions chains the state decision to decision, each bot line once, effects in order', async () => {
    world = await coreWorld();
    const w = world;
    const decisions = watchDecisions(w.store);
    const ids = [
      await customerWrites(w.store, KEY, 'hello', 1_000),
      await customerWrites(w.store, KEY, 'thanks', 1_001),
      await customerWrites(w.store, KEY, 'what are your opening hours', 1_002),
    ];
    await drain(w.bridge, KEY);
    // The second decision started from the state the first left, the third from the second's.
    expect(decisions.seen).toEqual([[], [ids[0]], [ids[0], ids[1]]]);
    const conv = await w.store.getConversation(KEY);
    expect(recent(conv)).toEqual(ids);
    // Each decision's customer line, then its bot line, once: a state applied twice would add its lines twice.
    const lines = conv?.transcript.map((l) => l.from);
    expect(lines).toEqual(['customer', 'bot', 'customer', 'bot', 'customer', 'bot']);
    expect(conv?.transcript.filter((l) => l.from === 'bot').map((l) => l.text)).toEqual(w.engage.replies());
    expect(w.engage.published.map((p) => p.mentionId)).toEqual(ids);
    for (const id of ids) expect((await w.store.getEffect(`${TOPIC}/${id}:decision`))?.status).toBe('done');
    expect(await w.store.pendingEffects()).toEqual([]);
  });

  it('a restart between commit and perform performs the stored effects once and decides nothing again', async () => {
    world = await coreWorld();
    const w = world;
    const ids = [await customerWrites(w.store, KEY, 'hello', 1_000), await customerWrites(w.store, KEY, 'thanks', 1_001)];
    // The first process dies once its round's decisions are recorded, before any effect is performed.
    const flush = w.store.flush.bind(w.store);
    w.store.flush = async () => {
      w.store.flush = flush;
      await flush();
      throw new Error('killed');
    };
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toEqual([]);
    const decided = await w.store.getConversation(KEY);
    expect(recent(decided)).toEqual(ids);
    await w.bridge.stop();
    w.clock.advance(60_000);
    const bridge = await w.restart();
    const decisions = watchDecisions(w.store);
    await drain(bridge, KEY);
    expect(decisions.seen).toEqual([]);
    expect(w.engage.published.map((p) => p.mentionId)).toEqual(ids);
    const conv = await w.store.getConversation(KEY);
    expect(conv?.dialog).toEqual(decided?.dialog);
    expect(conv?.transcript.map((l) => l.from)).toEqual(['customer', 'bot', 'customer', 'bot']);
    expect(await w.store.pendingInbound()).toEqual([]);
    expect(await w.store.pendingEffects()).toEqual([]);
  });

  it('an effect is performed only once it is on disk: while the store cannot write, a later round sends nothing', async () => {
    world = await coreWorld();
    const w = world;
    const ids = [await customerWrites(w.store, KEY, 'hello', 1_000)];
    // The disk is full: every write fails, so the round's decisions stay in memory only.
    const flush = w.store.flush.bind(w.store);
    let diskFull = true;
    w.store.flush = async () => {
      if (diskFull) throw new Error('ENOSPC: no space left on device');
      await flush();
    };
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toEqual([]);
    // The contact is looked at again while the disk is still full: its effects are in memory, not on disk.
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toEqual([]);
    diskFull = false;
    await drain(w.bridge, KEY);
    expect(w.engage.published.map((p) => p.mentionId)).toEqual(ids);
  });

  describe('on the file store', () => {
    const tempDir = useTempDirs();

    it('commitDecision writes the conversation with its new state and lines, and the effects, in one journal record', async () => {
      const clock = new FakeClock();
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir, clock: clock.now });
      stores.push(store);
      world = await coreWorld({ clock, store });
      const conv: ConversationRecord = {
        key: KEY,
        channel: 'whatsapp',
        serviceId: KEY.split(':')[1] as string,
        owner: 'bot',
        ownerConfirmedAt: clock.now(),
        dialog: { step: 'before' },
        transcript: [{ at: 1_000, from: 'customer', text: 'hi', mentionId: '9500' }],
        updatedAt: clock.now(),
      };
      await store.saveConversation(conv);
      await store.flush();
      const decision = { state: { step: 'after' }, actions: [{ type: 'reply', text: 'Hello' }] } as unknown as Decision;
      await commitDecision(world.bridge.context, KEY, '9500', decision, { mentionId: '9500', topicId: TOPIC }, (c) => c);
      const [journal] = (await readdir(dataDir)).filter((name) => name.startsWith('journal-'));
      const last = (await readFile(join(dataDir, journal!), 'utf8')).trimEnd().split('\n').at(-1)!;
      const record = JSON.parse(last) as { conversations: Array<[string, ConversationRecord]>; outbox: Array<[string]> };
      expect(record.conversations.map(([key, c]) => [key, c.dialog, c.transcript.map((l) => l.text)])).toEqual([
        [KEY, { step: 'after' }, ['hi', 'Hello']],
      ]);
      expect(record.outbox.map(([key]) => key).sort()).toEqual(['9500:1:reply', '9500:decision']);
    });

    it('a decision whose journal record was torn by a crash is decided again from the old state, and answered once', async () => {
      const clock = new FakeClock();
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir, clock: clock.now });
      stores.push(store);
      world = await coreWorld({ clock, store });
      const w = world;
      const first = await customerWrites(store, KEY, 'hello', 1_000);
      await drain(w.bridge, KEY);
      const before = await store.getConversation(KEY);
      const id = await customerWrites(store, KEY, 'thanks', 1_001);
      // The process dies once the decision is appended: its record is the journal's last line.
      const flush = store.flush.bind(store);
      store.flush = async () => {
        store.flush = flush;
        await flush();
        throw new Error('killed');
      };
      await drain(w.bridge, KEY);
      expect(w.engage.replies()).toHaveLength(1);
      const copy = await killCopy(dataDir, await tempDir());
      const { path, text, last, record } = await lastJournalRecord(copy);
      // The conversation's new state and the effects are in that one record.
      expect(record.conversations.map(([key]) => key)).toEqual([KEY]);
      expect(record.outbox.map(([key]) => key).sort()).toEqual([`${TOPIC}/${id}:1:reply`, `${TOPIC}/${id}:decision`]);
      await truncate(path, Buffer.byteLength(text) - 1 - Math.floor(Buffer.byteLength(last) / 2));
      await w.bridge.stop();

      const reopened = await openFileStore({ dataDir: copy, clock: clock.now });
      stores.push(reopened);
      expect(await reopened.getEffect(`${TOPIC}/${id}:decision`)).toBeUndefined();
      expect((await reopened.getConversation(KEY))?.dialog).toEqual(before?.dialog);
      clock.advance(60_000);
      world = await coreWorld({ clock, store: reopened, engage: w.engage });
      await drain(world.bridge, KEY);
      expect(w.engage.published.map((p) => p.mentionId)).toEqual([first, id]);
      const conv = await reopened.getConversation(KEY);
      expect(recent(conv)).toEqual([first, id]);
      expect(fromAndText(conv)?.filter((l) => l.startsWith('customer'))).toEqual([`customer:${first}`, `customer:${id}`]);
      expect(conv?.transcript.map((l) => l.from)).toEqual(['customer', 'bot', 'customer', 'bot']);
      expect(await reopened.pendingInbound()).toEqual([]);
    });
  });
});
