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
