import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait-for.js';
import { KEY, coreWorld, customerWrites, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  world?.engage.releaseAll();
  await world?.bridge.stop();
  world = undefined;
});

describe("a customer's messages are decided in the order written", () => {
  it('decides a message written earlier but recorded while the round waited on the service before the later ones', async () => {
    world = await coreWorld();
    const w = world;
    // The owner check of the round's first decision waits on the service.
    w.engage.hold('handover.get');
    const later1 = await customerWrites(w.store, KEY, 'what are your opening hours', 1_001);
    const later2 = await customerWrites(w.store, KEY, 'thanks', 1_002);
    w.bridge.dispatcher.schedule(KEY);
    await waitFor('the round waiting on the owner check', () => (w.engage.inFlight.get('handover.get') ?? 0) === 1);
    // Written a second before the others, recorded only now (the poll after a restart finds it late).
    const earlier = await customerWrites(w.store, KEY, 'hello', 1_000);
    w.engage.release('handover.get');
    await w.bridge.idle();

    expect(w.engage.published.map((p) => p.mentionId)).toEqual([earlier, later1, later2]);
    // The round's answer is fresh (well within BRIDGE_OWNER_CONFIRM_AGE_MS): no second check for the earlier message.
    expect(w.engage.count('handover.get')).toBe(1);
    const conv = await w.store.getConversation(KEY);
    expect(conv?.transcript.filter((l) => l.from === 'customer').map((l) => l.mentionId)).toEqual([earlier, later1, later2]);
  });

  it("takes people's activity recorded during a decision before that decision: the bot does not answer over them", async () => {
    world = await coreWorld();
    const w = world;
    w.engage.hold('handover.get');
    await customerWrites(w.store, KEY, 'what are your opening hours', 1_001);
    w.bridge.dispatcher.schedule(KEY);
    await waitFor('the round waiting on the owner check', () => (w.engage.inFlight.get('handover.get') ?? 0) === 1);
    await w.store.recordInbound({ id: 'agent-1', topicId: '2001', key: KEY, addedAt: 1_002, payload: { kind: 'agent-action' } });
    w.engage.release('handover.get');
    await w.bridge.idle();

    expect(w.engage.published).toEqual([]);
    expect((await w.store.getConversation(KEY))?.owner).toBe('agents');
  });
  it("checks the owner again for a message recorded during the round: the round's answer may be older than it", async () => {
    world = await coreWorld();
    const w = world;
    // People answered a minute ago; the bridge keeps a contact held by people only as long as it has just checked.
    const peopleAt = w.clock.now() - 60_000;
    await w.store.saveConversation({
      key: KEY,
      channel: 'whatsapp',
      serviceId: KEY.split(':')[1] as string,
      owner: 'agents',
      ownerConfirmedAt: w.clock.now(),
      lastHumanActivityAt: peopleAt,
      transcript: [],
      updatedAt: w.clock.now(),
    });
    w.engage.owners.set(KEY, 'agents');
    w.engage.hold('handover.get');
    await customerWrites(w.store, KEY, 'are you there?', Math.floor(peopleAt / 1000) + 10);
    w.bridge.dispatcher.schedule(KEY);
    await waitFor('the round waiting on the owner check', () => (w.engage.inFlight.get('handover.get') ?? 0) === 1);
    // Written while the check was on its way: people may have handed the contact back after its answer.
    await customerWrites(w.store, KEY, 'hello?', Math.floor(peopleAt / 1000) + 20);
    w.engage.release('handover.get');
    await w.bridge.idle();

    expect(w.engage.count('handover.get')).toBe(2);
  });
});
