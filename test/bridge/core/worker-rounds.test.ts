import { afterEach, describe, expect, it } from 'vitest';
import { ServerError } from '../../../src/engage/index.js';
import type { Store } from '../../../src/storage/index.js';
import { FakeClock, KEY, TOPIC, coreWorld, customerWrites, drain, type CoreWorld } from './core-harness.js';

const OTHER = 'whatsapp:32470000502';
let world: CoreWorld | undefined;
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
});

/** Counts the store's calls of `method` about `key` from now on (the returned function gives the count). */
function countReads(store: Store, method: 'pendingInbound' | 'pendingEffects', key: string): () => number {
  const original = store[method].bind(store) as (key?: string) => Promise<unknown>;
  let reads = 0;
  Object.assign(store, {
    [method]: (asked?: string) => {
      if (asked === key) reads += 1;
      return original(asked);
    },
  });
  return () => reads;
}

describe('the worker takes in every waiting message of a contact, in rounds, and leaves nothing half done', () => {
  it('answers a first message: claims the contact, commits the decision, publishes the reply and marks the mention handled', async () => {
    world = await coreWorld();
    const w = world;
    const id = await customerWrites(w.store, KEY, 'hello', 1_000);
    await drain(w.bridge, KEY);
    expect(w.engage.count('handover.toApplication')).toBe(1);
    expect(w.engage.replies()).toHaveLength(1);
    expect(await w.store.pendingInbound(KEY)).toEqual([]);
    expect(await w.store.pendingEffects(KEY)).toEqual([]);
    expect((await w.store.getEffect(`${TOPIC}/${id}:decision`))?.status).toBe('done');
    const conv = await w.store.getConversation(KEY);
    expect(conv?.owner).toBe('bot');
    expect(conv?.transcript.map((l) => l.from)).toEqual(['customer', 'bot']);
  });

  it('drains a backlog of many messages for one contact in one run, each decided once and answered in order', async () => {
    world = await coreWorld();
    const w = world;
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) ids.push(await customerWrites(w.store, KEY, '1', 1_000 + i));
    await drain(w.bridge, KEY);
    expect(await w.store.pendingInbound(KEY)).toEqual([]);
    expect(await w.store.pendingEffects(KEY)).toEqual([]);
    for (const id of ids) expect((await w.store.getEffect(`${TOPIC}/${id}:decision`))?.status).toBe('done');
    const answered = w.engage.published.map((p) => p.mentionId);
    expect(answered).toEqual(ids);
    const conv = await w.store.getConversation(KEY);
    // The transcript keeps the latest lines only; they end with the last message and its answer.
    expect(conv?.transcript.filter((l) => l.from === 'customer').at(-1)?.mentionId).toBe(ids.at(-1));
    expect(conv?.transcript.at(-1)?.from).toBe('bot');
  });

  it('a backlog longer than one run lets other contacts have a turn and is picked up again until drained', async () => {
    world = await coreWorld();
    const w = world;
    // A run is one round of up to 20: 1,010 messages need 51 runs.
    for (let i = 0; i < 1_010; i++) await customerWrites(w.store, KEY, '1', 1_000 + i);
    await customerWrites(w.store, OTHER, 'hello', 1_000);
    w.bridge.dispatcher.schedule(KEY);
    w.bridge.dispatcher.schedule(OTHER);
    await w.bridge.idle();
    expect(await w.store.pendingInbound()).toEqual([]);
    expect(await w.store.pendingEffects()).toEqual([]);
    expect(w.engage.replies()).toHaveLength(1_011);
  });

  it('a contact with a backlog gives way after each round: a contact waiting behind it is answered after one round, not after the whole backlog', async () => {
    world = await coreWorld({ settings: { maxConcurrentContacts: 1 } });
    const w = world;
    for (let i = 0; i < 60; i++) await customerWrites(w.store, KEY, '1', 1_000 + i);
    const other = await customerWrites(w.store, OTHER, 'hello', 1_000);
    w.bridge.dispatcher.schedule(KEY);
    w.bridge.dispatcher.schedule(OTHER);
    await w.bridge.idle();
    const order = w.engage.published.map((p) => p.mentionId);
    expect(order).toHaveLength(61);
    // One round takes up to 20 waiting messages; the other contact comes next, before the backlog's second round.
    expect(order.indexOf(other)).toBe(20);
  });

  it('confirms the owner once per round, not once per waiting message, when every bot message must be confirmed', async () => {
    // Every reading of the clock moves it on: no two steps happen in the same millisecond, as in a real process.
    class TickingClock extends FakeClock {
      override readonly now = (): number => this.ms++;
    }
    world = await coreWorld({ clock: new TickingClock(), settings: { ownerConfirmAgeMs: 0 } });
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    await drain(w.bridge, KEY);
    const before = w.engage.count('handover.get');
    for (let i = 0; i < 5; i++) await customerWrites(w.store, KEY, '1', 2_000 + i);
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toHaveLength(6);
    // One GET when the round starts (it is newer than all five messages), then one before each reply goes out.
    expect(w.engage.count('handover.get') - before).toBe(1 + 5);
  });

  it('messages decided in one batch each start from the state the one before left', async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    // "3" picks "Talk to an agent" from the menu the first answer shows: decided from a fresh state it would be a greeting.
    await customerWrites(w.store, KEY, '3', 1_001);
    await drain(w.bridge, KEY);
    expect(w.engage.count('handover.toAgents')).toBe(1);
    expect((await w.store.getConversation(KEY))?.owner).toBe('agents');
    expect(w.notices).toHaveLength(1);
  });

  it('a message whose reply must wait for a retry is not decided again when the contact runs again', async () => {
    world = await coreWorld();
    const w = world;
    w.engage.failNext(
      'publisher.add',
      new ServerError({ method: 'POST', path: '/1001/publisher/add', status: 503, serviceError: 'server_error', description: 'down' }),
    );
    const id = await customerWrites(w.store, KEY, 'hello', 1_000);
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toHaveLength(0);
    // The decision is applied (its state is on the conversation), the reply waits, the mention stays pending.
    expect((await w.store.getEffect(`${TOPIC}/${id}:decision`))?.status).toBe('done');
    expect((await w.store.pendingInbound(KEY)).map((m) => m.id)).toEqual([id]);
    w.clock.advance(60_000);
    await drain(w.bridge, KEY);
    expect(w.engage.replies()).toHaveLength(1);
    expect(await w.store.pendingInbound(KEY)).toEqual([]);
    const conv = await w.store.getConversation(KEY);
    expect(conv?.transcript.map((l) => l.from)).toEqual(['customer', 'bot']);
  });
  it("reads a contact's waiting list once per decision, plus once at the round's start", async () => {
    world = await coreWorld();
    const w = world;
    const ids = [
      await customerWrites(w.store, KEY, 'hello', 1_000),
      await customerWrites(w.store, KEY, 'thanks', 1_001),
      await customerWrites(w.store, KEY, 'what are your opening hours', 1_002),
    ];
    const reads = countReads(w.store, 'pendingInbound', KEY);
    await drain(w.bridge, KEY);
    expect(w.engage.published.map((p) => p.mentionId)).toEqual(ids);
    // One per message (once its awaits are over; it also picks the next) and the round's start (which picks the
    // first). It was 9: a read to pick each message and another after its awaits, one more to find nothing left, and
    // one after the effects (a mention recorded meanwhile schedules its contact itself).
    expect(reads()).toBe(3 + 1);
  });
  it('answers a message recorded while the round finishes, in a run of its own (its record scheduled the contact)', async () => {
    world = await coreWorld();
    const w = world;
    const first = await customerWrites(w.store, KEY, 'hello', 1_000);
    let second: string | undefined;
    const mark = w.store.markInboundProcessed.bind(w.store);
    w.store.markInboundProcessed = async (topicId, id) => {
      if (second === undefined) {
        // The webhook records the customer's next message, and schedules the contact, as the round ends.
        second = await customerWrites(w.store, KEY, 'thanks', 1_001);
        w.bridge.dispatcher.schedule(KEY);
      }
      return mark(topicId, id);
    };
    await drain(w.bridge, KEY);
    expect(w.engage.published.map((p) => p.mentionId)).toEqual([first, second]);
    expect(await w.store.pendingInbound(KEY)).toEqual([]);
  });
  it("reads a contact's pending effects once before its round's decisions and once after, when performing them adds none", async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    const reads = countReads(w.store, 'pendingEffects', KEY);
    await drain(w.bridge, KEY);
    expect(reads()).toBe(2);
    expect(w.engage.replies()).toHaveLength(1);
    // None left: it was 3 reads, the last after performing them, to find none added (a reply adds none).
    expect(await w.store.pendingEffects(KEY)).toEqual([]);
  });
});
