import { cpSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/bot/index.js';
import { commitDecision } from '../../../src/bridge/run-brain.js';
import { openSqliteStore, type ConversationRecord, type Store } from '../../../src/storage/index.js';
import { killCopy } from '../../storage/crash-helpers.js';
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

  describe('on the SQLite store', () => {
    const tempDir = useTempDirs();

    it('commitDecision makes the conversation with its new state and lines durable together with the effects', async () => {
      const clock = new FakeClock();
      const dataDir = await tempDir();
      const store = await openSqliteStore({ dataDir, clock: clock.now });
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
      // What a kill -9 right now would leave: the files as they are.
      const copy = await killCopy(dataDir, await tempDir());
      const reopened = await openSqliteStore({ dataDir: copy, clock: clock.now });
      stores.push(reopened);
      const after = await reopened.getConversation(KEY);
      expect([after?.dialog, after?.transcript.map((l) => l.text)]).toEqual([{ step: 'after' }, ['hi', 'Hello']]);
      expect((await reopened.pendingEffects()).map((e) => e.key)).toEqual(['9500:1:reply']);
      expect((await reopened.getEffect('9500:decision'))?.status).toBe('done');
    });

    it('a decision lost by a crash before its commit is decided again from the old state, and answered once', async () => {
      const clock = new FakeClock();
      const dataDir = await tempDir();
      const store = await openSqliteStore({ dataDir, clock: clock.now });
      stores.push(store);
      world = await coreWorld({ clock, store });
      const w = world;
      const first = await customerWrites(store, KEY, 'hello', 1_000);
      await drain(w.bridge, KEY);
      const before = await store.getConversation(KEY);
      const id = await customerWrites(store, KEY, 'thanks', 1_001);
      // The process dies when the worker flushes the applied decision: the files hold everything before its commit.
      const copy = await tempDir();
      const flush = store.flush.bind(store);
      store.flush = async () => {
        store.flush = flush;
        cpSync(dataDir, copy, { recursive: true, filter: (source) => !source.endsWith('bridge.lock') });
        throw new Error('killed');
      };
      await drain(w.bridge, KEY);
      expect(w.engage.replies()).toHaveLength(1);
      await w.bridge.stop();

      const reopened = await openSqliteStore({ dataDir: copy, clock: clock.now });
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
