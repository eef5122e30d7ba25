import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, callsOf, startHarness, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('a hand-back in the service tool', () => {
  it("answers the customer's next message at once, re-confirming the owner instead of waiting for a reconcile pass (#10.3)", async () => {
    h = await startHarness();
    const id = '32470000051';
    await h.say(id, 'hello');
    await h.settle();
    await h.say(id, 'agent');
    await h.settle();
    expect((await h.running.store.getConversation(`whatsapp:${id}`))?.owner).toBe('agents');
    // Minutes later (past the escalation's 5-minute grace time) the customer writes while people hold the contact: the
    // bridge confirms with the service that they still do, and stays silent.
    h.advance(6 * 60_000);
    await h.say(id, 'hello?');
    await h.settle();
    const before = botMessagesTo(h, id).length;
    // People hand the contact back to the application in the tool; the bridge is not told.
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: id, owner: 'application' });
    h.advance(6_000); // older than the 5 s the bridge trusts its belief that agents hold the contact
    const gets = callsOf(h, 'GET', `/inbox/handover/whatsapp/${id}`).length;
    await h.say(id, 'are you still there?');
    await h.settle();
    await waitFor('the bot answering after the hand-back', () => botMessagesTo(h!, id).length > before);
    expect(callsOf(h, 'GET', `/inbox/handover/whatsapp/${id}`).length).toBeGreaterThan(gets);
  });
});

describe('a hand-back the bridge learns of late', () => {
  it("does not let an agent's reply it reads late silence a customer who wrote after people handed the contact back", async () => {
    h = await startHarness();
    const id = '32470000052';
    await h.say(id, 'hello');
    await h.settle();
    const before = botMessagesTo(h, id).length;
    // While the bridge reads nothing (behind, or restarting): a person answers, then hands the contact back in the tool;
    // 20 s later the customer writes again. The bridge then reads all of it in one go.
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Hi, Alice here. All sorted?' });
    h.setServiceOffset(5);
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: id, owner: 'application' });
    h.setServiceOffset(25);
    await h.say(id, 'yes, one more question');
    await h.settle();
    await waitFor('the bot answering the message written after the hand-back', () => botMessagesTo(h!, id).length > before);
  });
});

describe('a customer message written well after the last thing people did', () => {
  it('re-confirms the owner however recently the bridge itself learned that people hold the contact', async () => {
    h = await startHarness();
    const id = '32470000053';
    await h.say(id, 'hello');
    await h.settle();
    const before = botMessagesTo(h, id).length;
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Hi, Alice here.' });
    await h.settle();
    expect((await h.running.store.getConversation(`whatsapp:${id}`))?.owner).toBe('agents');
    // On the service's clock, 30 s later people hand the contact back and the customer writes; on the bridge's
    // clock hardly any time passed (it is catching up), so its belief is still "fresh".
    h.setServiceOffset(30);
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: id, owner: 'application' });
    await h.say(id, 'one more thing');
    await h.settle();
    await waitFor('the bot answering after the hand-back', () => botMessagesTo(h!, id).length > before);
  });
});
