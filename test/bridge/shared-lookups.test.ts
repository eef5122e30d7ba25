import { describe, expect, it } from 'vitest';
import type { BridgeEngage } from '../../src/bridge/bridge-engage.js';
import { knownBotUser, learnBotUser } from '../../src/bridge/ownership/own-echo.js';
import { ReplyServices } from '../../src/bridge/effects/reply-services.js';
import { silentLogger } from '../../src/log.js';
import { createMemoryStore } from '../../src/storage/index.js';
import { waitFor } from '../support/wait-for.js';

/** A lookup whose answers wait until the test lets them go, counting the calls made. */
function heldLookup<T>(answer: T) {
  const waiting: Array<() => void> = [];
  const lookup = {
    calls: 0,
    call: async (): Promise<T> => {
      lookup.calls += 1;
      await new Promise<void>((go) => waiting.push(go));
      return answer;
    },
    letGo: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
  return lookup;
}

const target = { topicId: '2001', mentionId: '9001' };
const listed = { profiles: [], services: [{ type: 'whatsapp', service_id: '3225550100' }] };

describe('lookups that many contacts need at the same moment are made once', () => {
  it('first replies of several contacts share one GET publisher/add while it is under way', async () => {
    const lookup = heldLookup(listed);
    const services = new ReplyServices({ publisher: { services: lookup.call } } as unknown as BridgeEngage, () => 0);
    const asked = [services.forReply('whatsapp', target), services.forReply('whatsapp', { ...target, mentionId: '9002' })];
    services.prefetch('whatsapp', { ...target, mentionId: '9003' });
    await waitFor('the lookup under way', () => lookup.calls === 1);
    lookup.letGo();
    for (const got of await Promise.all(asked)) expect(got).toEqual([{ type: 'whatsapp', service_id: '3225550100' }]);
    expect(lookup.calls).toBe(1);
  });

  it('a refusal while a lookup is under way makes the next reply ask again', async () => {
    const lookup = heldLookup(listed);
    const services = new ReplyServices({ publisher: { services: lookup.call } } as unknown as BridgeEngage, () => 0);
    const first = services.forReply('whatsapp', target);
    await waitFor('the first lookup', () => lookup.calls === 1);
    services.forget('whatsapp', target.topicId);
    const second = services.forReply('whatsapp', target);
    await waitFor('a second lookup', () => lookup.calls === 2);
    lookup.letGo();
    await Promise.all([first, second]);
  });

  it('an answer asked for before a refusal is not cached after it', async () => {
    const old = heldLookup(listed);
    const fresh = { profiles: [], services: [{ type: 'whatsapp', service_id: '3225550199' }] };
    let lookups = 0;
    const services = new ReplyServices(
      { publisher: { services: () => (++lookups === 1 ? old.call() : Promise.resolve(fresh)) } } as unknown as BridgeEngage,
      () => 0,
    );
    const before = services.forReply('whatsapp', target);
    await waitFor('the first lookup', () => old.calls === 1);
    services.forget('whatsapp', target.topicId);
    expect(await services.forReply('whatsapp', target)).toEqual(fresh.services);
    old.letGo();
    await before;
    // The later answer stays: the old one came back after the refusal and is not kept.
    expect(await services.forReply('whatsapp', target)).toEqual(fresh.services);
    expect(lookups).toBe(2);
  });

  it("the bot's user named by a burst of first replies is read once", async () => {
    const lookup = heldLookup({ id: 'u1', name: 'Bot' });
    const store = createMemoryStore({ clock: () => 0 });
    const ctx = { store, engage: { users: { get: lookup.call } } as unknown as BridgeEngage, log: silentLogger() };
    const learning = Array.from({ length: 8 }, () => learnBotUser(ctx, { user_id: 'u1' }));
    await waitFor('the read under way', () => lookup.calls === 1);
    lookup.letGo();
    await Promise.all(learning);
    expect(lookup.calls).toBe(1);
    expect(await knownBotUser(ctx)).toEqual({ id: 'u1', name: 'Bot' });
    await store.close();
  });

  it("once the bot's user is learnt, the replies naming it read nothing more; another user is learnt anew", async () => {
    const users: Record<string, { id: string; name: string }> = { u1: { id: 'u1', name: 'Bot' }, u2: { id: 'u2', name: 'Bot 2' } };
    let lookups = 0;
    const store = createMemoryStore({ clock: () => 0 });
    let metaReads = 0;
    const getMeta = store.getMeta.bind(store);
    store.getMeta = () => {
      metaReads += 1;
      return getMeta();
    };
    const get = async (id: string) => {
      lookups += 1;
      return users[id];
    };
    const ctx = { store, engage: { users: { get } } as unknown as BridgeEngage, log: silentLogger() };
    await learnBotUser(ctx, { user_id: 'u1' });
    const afterFirst = metaReads;
    for (let i = 0; i < 5; i++) await learnBotUser(ctx, { user_id: 'u1' });
    expect(metaReads).toBe(afterFirst);
    await learnBotUser(ctx, { user_id: 'u2' });
    expect(lookups).toBe(2);
    expect(await knownBotUser(ctx)).toEqual({ id: 'u2', name: 'Bot 2' });
    await store.close();
  });
});

describe('reply services are chosen per mention (issue 26)', () => {
  it('replies from one service, the first listed for the mention, and asks per mention once a topic lists several', async () => {
    const asked: string[] = [];
    const engage = {
      publisher: {
        services: async (q: { mentionId: string }) => {
          asked.push(q.mentionId);
          const id = q.mentionId === '9001' ? '3225550100' : '3225550200';
          return {
            profiles: [],
            services: [
              { type: 'whatsapp', service_id: id },
              { type: 'whatsapp', service_id: 'other' },
            ],
          };
        },
      },
    } as unknown as BridgeEngage;
    const services = new ReplyServices(engage, () => 0);
    expect(await services.forReply('whatsapp', target)).toEqual([{ type: 'whatsapp', service_id: '3225550100' }]);
    expect(await services.forReply('whatsapp', { ...target, mentionId: '9002' })).toEqual([{ type: 'whatsapp', service_id: '3225550200' }]);
    expect(await services.forReply('whatsapp', { ...target, mentionId: '9002' })).toHaveLength(1);
    expect(asked).toEqual(['9001', '9002']);
  });
});
