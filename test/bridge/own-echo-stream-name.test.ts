import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../e2e/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe("the bot's own reply shown under the stream's name (issue 26)", () => {
  it('reads the handover item instead of handing the customer to people, and the conversation goes on', async () => {
    h = await startHarness({ realism: { echo_author_anonymous: true } });
    // The bot's user was learnt by name before (a service that named the user then): its echoes now name the stream.
    await h.running.store.setMeta({ values: { botUser: { id: 'u1', name: 'Bridge Bot' } } });
    const id = '32477000001';
    await h.say(id, 'hello');
    await h.settle();
    await h.settle(); // the echo is read back
    const before = botMessagesTo(h, id).length;
    expect(before).toBe(1);
    await h.say(id, 'Opening hours');
    await h.settle();
    expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`)).toHaveLength(0);
    expect(botMessagesTo(h, id).length).toBeGreaterThan(before);
    expect(h.running.bridge.context.health.guesses?.snapshot().notHeld['own-echo-author']).toBeGreaterThan(0);
  });

  it('still steps aside for a person named in the tool', async () => {
    h = await startHarness();
    const id = '32477000002';
    await h.say(id, 'hello');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Alice here' });
    await h.settle();
    expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`)).toHaveLength(1);
  });
});
