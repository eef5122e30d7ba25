import { afterEach, describe, expect, it } from 'vitest';
import type { InboundPayload } from '../../../src/bridge/intake/inbound-item.js';
import { TOPIC, coreWorld, customerWrites, drain, type CoreWorld } from './core-harness.js';

let world: CoreWorld | undefined;
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
});

const A = 'whatsapp:32470000601';
const B = 'whatsapp:32470000602';

describe('decisions taken on events are told apart by contact', () => {
  it('two contacts taken over by agents in the same second each get their own decision', async () => {
    world = await coreWorld();
    const w = world;
    await customerWrites(w.store, A, 'hello', 1_000);
    await customerWrites(w.store, B, 'hello', 1_000);
    await drain(w.bridge, A);
    await drain(w.bridge, B);
    // An agent acts on both contacts within the same second of the service's clock.
    const agent: InboundPayload = { kind: 'agent-action', userId: 'agent-7' };
    await w.store.recordInbound({ id: '8801', topicId: TOPIC, key: A, addedAt: 2_000, payload: agent });
    await w.store.recordInbound({ id: '8802', topicId: TOPIC, key: B, addedAt: 2_000, payload: agent });
    await drain(w.bridge, A);
    await drain(w.bridge, B);
    const dialogs = await Promise.all([A, B].map(async (key) => (await w.store.getConversation(key))?.dialog));
    // The agents' takeover is each conversation's own decision: neither is dropped as "already decided".
    expect(dialogs.map((d) => (d as { mode?: string } | undefined)?.mode)).toEqual(['agents', 'agents']);
  });
});
