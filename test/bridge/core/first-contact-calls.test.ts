import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.js';
import { KEY, coreWorld, customerWrites, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  world?.engage.releaseAll();
  await world?.bridge.stop();
  world = undefined;
});

describe("a contact's first message waits for as few round trips as it can", () => {
  it("reads the contact's facts while the owner check is still in flight, and still answers once", async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    w.engage.hold('handover.get');
    w.engage.hold('contacts.get');
    w.bridge.dispatcher.schedule(KEY);
    await waitFor('the owner check in flight', () => w.engage.inFlight.get('handover.get') === 1);
    // Both reads are out at the same moment: the facts do not wait for the owner's answer.
    await waitFor('the facts read beside it', () => w.engage.inFlight.get('contacts.get') === 1);
    expect(w.engage.inFlight.get('handover.get')).toBe(1);
    w.engage.release('handover.get');
    w.engage.release('contacts.get');
    await w.bridge.idle();
    expect(w.engage.count('handover.get')).toBe(1);
    expect(w.engage.count('contacts.get')).toBe(1);
    expect(w.engage.replies()).toHaveLength(1);
  });

  it('asks for the services to reply from while the owner check is in flight, once for a burst of contacts', async () => {
    world = await coreWorld();
    const w = world;
    const others = ['whatsapp:32470000511', 'whatsapp:32470000512'];
    for (const key of [KEY, ...others]) await customerWrites(w.store, key, 'hello', 1_000);
    w.engage.hold('handover.get');
    w.engage.hold('publisher.services');
    for (const key of [KEY, ...others]) w.bridge.dispatcher.schedule(key);
    await waitFor('three owner checks in flight', () => w.engage.inFlight.get('handover.get') === 3);
    await waitFor('the services asked beside them', () => w.engage.inFlight.get('publisher.services') === 1);
    w.engage.release('handover.get');
    w.engage.release('publisher.services');
    await w.bridge.idle();
    expect(w.engage.count('publisher.services')).toBe(1);
    expect(w.engage.replies()).toHaveLength(3);
  });

  it("sends a contact's next reply while the read of the bot's user is still under way, and ends the run after it", async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    await customerWrites(w.store, KEY, 'thanks', 1_001);
    w.engage.hold('users.get');
    w.bridge.dispatcher.schedule(KEY);
    await waitFor('both replies out', () => w.engage.replies().length === 2);
    expect(w.engage.inFlight.get('users.get')).toBe(1);
    // The run is not over while its read is under way: idle() still covers it.
    expect(w.bridge.dispatcher.depth()).toBe(1);
    w.engage.release('users.get');
    await w.bridge.idle();
    expect(w.engage.count('users.get')).toBe(1);
    expect((await w.store.getMeta()).values.botUser).toEqual({ id: 'u1', name: 'Bot' });
  });

  it('reads no facts again when a later message re-confirms the owner of a dialog already started', async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, KEY, 'hello', 1_000);
    w.bridge.dispatcher.schedule(KEY);
    await w.bridge.idle();
    expect(w.engage.count('contacts.get')).toBe(1);
    // Past the owner's trust age, a second message confirms the owner again; the dialog exists, so no facts read.
    w.clock.advance(60_000);
    await customerWrites(w.store, KEY, 'thanks', 1_060);
    w.bridge.dispatcher.schedule(KEY);
    await w.bridge.idle();
    expect(w.engage.count('handover.get')).toBe(2);
    expect(w.engage.count('contacts.get')).toBe(1);
    expect(w.engage.replies()).toHaveLength(2);
  });
});
