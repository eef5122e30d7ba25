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
