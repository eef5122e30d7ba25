import { describe, expect, it } from 'vitest';
import { MAX_WATCHED, MentionRecheck, watchRecentConversations } from '../../src/bridge/intake/poller-recheck.js';
import { FULL_PASS_EVERY_MS, Reconciler } from '../../src/bridge/ownership/reconcile.js';
import { createMemoryStore, type ConversationRecord, type Store } from '../../src/storage/index.js';

const NOW = 1_700_000_000_000;
const MINUTE = 60_000;

function conversation(n: number, overrides: Partial<ConversationRecord> = {}): ConversationRecord {
  const serviceId = String(32_470_000_000 + n);
  return {
    key: `whatsapp:${serviceId}`,
    channel: 'whatsapp',
    serviceId,
    owner: 'bot',
    transcript: [],
    lastMentionId: String(1_000_000 + n),
    lastMentionTopicId: '2001',
    lastInboundAt: NOW - MINUTE,
    updatedAt: NOW - MINUTE,
    ...overrides,
  };
}

/** The store, counting the records it hands out, and the most it handed out in one go (all in memory at once). */
function counting(store: Store): { store: Store; read: () => number; mostAtOnce: () => number } {
  let read = 0;
  let mostAtOnce = 0;
  const counted = Object.create(store) as Store;
  counted.listConversations = async (filter) => {
    const found = await store.listConversations(filter);
    read += found.length;
    mostAtOnce = Math.max(mostAtOnce, found.length);
    return found;
  };
  counted.eachConversation = (filter, visit) =>
    store.eachConversation(filter, (record) => {
      read += 1;
      mostAtOnce = Math.max(mostAtOnce, 1);
      return visit(record);
    });
  return { store: counted, read: () => read, mostAtOnce: () => mostAtOnce };
}

// With tens of thousands of stored conversations, start-up and the periodic passes must not bring them all into
// memory at once (issue 13: peak RSS with 50,000 stored conversations).
describe('stored conversations are read a few or one at a time', () => {
  it('after a restart only as many recent conversations as can be watched are read, the newest, one at a time', async () => {
    const store = createMemoryStore({ clock: () => NOW });
    const total = MAX_WATCHED + 500;
    for (let n = 0; n < total; n++) await store.saveConversation(conversation(n, { updatedAt: NOW - 20 * MINUTE + n }));
    const { store: counted, read, mostAtOnce } = counting(store);
    const recheck = new MentionRecheck();
    await watchRecentConversations({ store: counted, now: () => NOW }, recheck);
    expect(read()).toBe(MAX_WATCHED);
    expect(mostAtOnce()).toBe(1);
    expect(recheck.size).toBe(MAX_WATCHED);
    // The oldest 500 are the ones left out, as when all were read and the idlest made room.
    expect(recheck.keyOf('2001', String(1_000_000 + 499))).toBeUndefined();
    expect(recheck.keyOf('2001', String(1_000_000 + 500))).toBe(conversation(500).key);
    expect(recheck.keyOf('2001', String(1_000_000 + total - 1))).toBe(conversation(total - 1).key);
  });

  it("the reconcile pass goes over people's conversations one at a time and still returns the idle ones", async () => {
    const store = createMemoryStore({ clock: () => NOW });
    const idle = conversation(1, { owner: 'agents', ownerChangedAt: NOW - 90 * MINUTE, humanSeenAt: NOW - 80 * MINUTE });
    await store.saveConversation(idle);
    for (let n = 2; n < 50; n++) await store.saveConversation(conversation(n, { owner: 'agents', updatedAt: NOW - 90 * MINUTE }));
    const { store: counted, read, mostAtOnce } = counting(store);
    const returned: string[] = [];
    const ctx = {
      store: counted,
      now: () => NOW,
      health: { revoked: false },
      settings: { idleReturnMinutes: 30, stuckEscalationMinutes: 0, ownerConfirmAgeMs: 30_000 },
      hours: { current: () => undefined, input: () => ({}) },
      log: { warn: () => undefined, info: () => undefined },
    } as unknown as ConstructorParameters<typeof Reconciler>[0];
    const events = {
      returnToBot: async (key: string) => {
        returned.push(key);
        return { changed: true };
      },
    } as unknown as ConstructorParameters<typeof Reconciler>[1];
    const report = await new Reconciler(ctx, events).run();
    expect(report.idle).toBe(1);
    expect(returned).toEqual([idle.key]);
    expect(read()).toBe(49);
    expect(mostAtOnce()).toBe(1);
  });

  it("between the full passes over people's conversations, a run reads only the recently updated ones and those with an escalation", async () => {
    let now = NOW;
    const store = createMemoryStore({ clock: () => now });
    for (let n = 2; n < 50; n++) await store.saveConversation(conversation(n, { owner: 'agents', updatedAt: NOW - 90 * MINUTE }));
    const { store: counted, read } = counting(store);
    const returned: string[] = [];
    const looked: string[] = [];
    const ctx = {
      store: counted,
      now: () => now,
      health: { revoked: false },
      settings: { idleReturnMinutes: 30, stuckEscalationMinutes: 0, ownerConfirmAgeMs: 30_000 },
      hours: { current: () => undefined, input: () => ({}) },
      log: { warn: () => undefined, info: () => undefined },
      engage: {
        mentions: {
          get: async (ref: { id: string }) => {
            looked.push(ref.id);
            return { id: ref.id, status: 'open' };
          },
        },
      },
    } as unknown as ConstructorParameters<typeof Reconciler>[0];
    const events = {
      returnToBot: async (key: string) => {
        returned.push(key);
        return { changed: true };
      },
    } as unknown as ConstructorParameters<typeof Reconciler>[1];
    const reconciler = new Reconciler(ctx, events);
    await reconciler.run();
    expect(read()).toBe(48);
    // Meanwhile: one contact goes idle (people answered long ago), one customer writes, one gets an escalation.
    const idle = conversation(1, {
      owner: 'agents',
      ownerChangedAt: NOW - 90 * MINUTE,
      humanSeenAt: NOW - 80 * MINUTE,
      updatedAt: NOW - 90 * MINUTE,
    });
    await store.saveConversation(idle);
    const writing = conversation(60, { owner: 'agents', updatedAt: NOW });
    await store.saveConversation(writing);
    const escalated = conversation(7);
    await store.openEscalation({
      contactKey: escalated.key,
      channel: 'whatsapp',
      serviceId: escalated.serviceId,
      reason: 'agent',
      priority: 'normal',
      mentionId: escalated.lastMentionId!,
      topicId: '2001',
      summary: '',
    });
    now += 15_000;
    await reconciler.run();
    // The one written to (the escalated one is read by its key, and looked up below).
    expect(read()).toBe(48 + 1);
    expect(returned).toEqual([]);
    expect(looked.sort()).toEqual([writing.lastMentionId, escalated.lastMentionId].sort());
    now += FULL_PASS_EVERY_MS;
    await reconciler.run();
    expect(read()).toBe(48 + 1 + 50);
    expect(returned).toEqual([idle.key]);
  });
});
