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
    h.advance(6_000); // older than the 5 s a bridge with BRIDGE_AGENTS_RECONFIRM_AGE_MS=5000 would trust its belief
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

describe('a customer who writes right after people reply, resolve and hand the contact back (#26.4)', () => {
  /**
   * People finish in the service's tool within one second: a reply, resolve, hand-back; the customer writes at once.
   * Returns whether the customer's message is dated in the second of the people's actions (`say` dates it by the
   * bridge's clock: on a busy machine a second may pass between `advance` and `say` unless that clock is frozen).
   */
  async function finishAndWrite(h: Harness, id: string, readReplyFirst: boolean): Promise<boolean> {
    h.advance(3_000); // a few seconds after the bot's greeting (and its claim of the contact)
    const second = Math.floor(h.now() / 1000);
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Alice here. All sorted?' });
    if (readReplyFirst) await h.settle();
    await h.control('/_sim/agent/resolve', { channel: 'whatsapp', service_id: id });
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: id, owner: 'application' });
    const written = await h.say(id, 'one more question');
    return h.sim.state.mentions.get(written)?.added === second;
  }

  it('is answered when the bridge reads the reply and the message after the hand-back, all in the same second', async () => {
    h = await startHarness({ frozenClock: true });
    const id = '32470000054';
    await h.say(id, 'hello');
    await h.settle();
    const before = botMessagesTo(h, id).length;
    expect(await finishAndWrite(h, id, false)).toBe(true); // the case's premise: all in the same second
    await h.settle();
    await waitFor('the bot answering the message written after the hand-back', () => botMessagesTo(h!, id).length > before);
    // The bridge did not undo the people's hand-back: the service still says the application owns the contact.
    expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`)).toHaveLength(0);
  });

  it('is answered when the bridge read the reply (and stepped aside) before people handed the contact back', async () => {
    // A running clock: the bridge re-confirms a belief that people hold the contact when it is older than
    // BRIDGE_AGENTS_RECONFIRM_AGE_MS (0), which a belief formed at a frozen instant never is.
    h = await startHarness();
    const id = '32470000055';
    await h.say(id, 'hello');
    await h.settle();
    const before = botMessagesTo(h, id).length;
    await finishAndWrite(h, id, true);
    await h.settle();
    await waitFor('the bot answering the message written after the hand-back', () => botMessagesTo(h!, id).length > before);
  });

  it("still steps aside for a person who writes in the same second the bot claimed the contact: that date is the bot's own", async () => {
    h = await startHarness();
    const id = '32470000056';
    await h.say(id, 'hello');
    await h.settle(); // the bot claims the contact (DELETE handover) and greets, in the service's second S
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Alice here.' }); // also in S
    await h.settle();
    expect((await h.running.store.getConversation(`whatsapp:${id}`))?.owner).toBe('agents');
    expect(callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`)).toHaveLength(1);
  });
});
