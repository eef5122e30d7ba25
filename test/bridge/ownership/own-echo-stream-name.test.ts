import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../../e2e/harness.js';

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

  it("reads the handover item, never hands over, for a reply action while the bot's own user is unknown", async () => {
    // Publish answers name no user: the bot never learns its own, so a reply action by it cannot be told from a person's.
    h = await startHarness({ realism: { echo_author_anonymous: true } });
    const id = '32477000003';
    await h.say(id, 'hello');
    await h.settle();
    await h.settle();
    expect(await h.running.store.getMeta().then((m) => m.values['botUser'])).toBeUndefined();
    // The service shows a reply by the bot's own user ('u1', the token's) on the customer's mention.
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Anything else?', user_id: 'u1' });
    await h.settle();
    expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`)).toHaveLength(0);
    expect(callsOf(h, 'GET', `/inbox/handover/whatsapp/${id}`).length).toBeGreaterThan(0);
    expect((await h.running.store.getConversation(`whatsapp:${id}`))?.owner).toBe('bot');
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
