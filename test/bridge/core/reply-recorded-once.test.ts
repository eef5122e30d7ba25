import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type Store } from '../../../src/storage/index.js';
import { FakeClock, KEY, TOPIC, coreWorld, customerWrites, drain, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
});

/** The memory store, counting the calls that write an effect's end and sync. */
function countingStore(clock: FakeClock): { store: Store; completes: string[]; flushes: () => number } {
  const store = createMemoryStore({ clock: clock.now });
  const completes: string[] = [];
  let flushes = 0;
  const complete = store.completeEffect.bind(store);
  const flush = store.flush.bind(store);
  store.completeEffect = (key, result) => {
    completes.push(key);
    return complete(key, result);
  };
  store.flush = () => {
    flushes += 1;
    return flush();
  };
  return { store, completes, flushes: () => flushes };
}

describe("a sent reply's end is recorded once", () => {
  it('records each sent reply once and syncs once for it, then answers the next message', async () => {
    const clock = new FakeClock();
    const counted = countingStore(clock);
    world = await coreWorld({ clock, store: counted.store });
    const first = await customerWrites(counted.store, KEY, 'hello', 1_000);
    const second = await customerWrites(counted.store, KEY, 'thanks', 1_001);
    await drain(world.bridge, KEY);
    expect(world.engage.replies()).toHaveLength(2);
    for (const id of [first, second]) {
      const replies = counted.completes.filter((k) => k.startsWith(`${TOPIC}/${id}:`) && k.endsWith(':reply'));
      expect(replies).toHaveLength(1);
      expect((await counted.store.getEffect(replies[0]!))?.status).toBe('done');
      expect((await counted.store.getEffect(replies[0]!))?.result).toMatchObject({ publisherMentionId: expect.any(String) });
    }
    // One sync for the round's two decisions (recorded in memory, made durable together before any effect runs),
    // then one per sent reply (taken when the service answered), none after it for the same reply.
    expect(counted.flushes()).toBe(3);
  });
  it('does not read a sent reply back from the store to learn that its end is recorded', async () => {
    const clock = new FakeClock();
    const store = createMemoryStore({ clock: clock.now });
    const reads: string[] = [];
    const get = store.getEffect.bind(store);
    store.getEffect = (key) => {
      reads.push(key);
      return get(key);
    };
    world = await coreWorld({ clock, store });
    await customerWrites(store, KEY, 'hello', 1_000);
    await drain(world.bridge, KEY);
    expect(world.engage.replies()).toHaveLength(1);
    // The performer recorded it the moment the service answered; only the decision's own check reads an effect.
    expect(reads.filter((k) => k.endsWith(':reply'))).toEqual([]);
  });
});
