import { describe, it, expect, afterEach } from 'vitest';
import { startHarness, botMessagesTo, callsOf, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const APOLOGY = /Sorry for the slow answer/;

describe('a backlog after downtime (#10.10)', () => {
  it('answers messages older than the maximum reply age with one apology turn, not as if they were live', async () => {
    h = await startHarness();
    await h.say('32470000201', 'hello');
    await h.settle();
    const before = botMessagesTo(h, '32470000201').length;
    // The bridge is away for two hours (no reads); the customer writes twice meanwhile.
    await h.say('32470000201', 'hello? anyone?');
    await h.say('32470000201', 'agent');
    h.advance(2 * 60 * 60_000);
    await h.settle();
    const late = botMessagesTo(h, '32470000201').slice(before);
    expect(late.map((m) => m.message)).toHaveLength(1);
    expect(late[0]!.message).toMatch(APOLOGY);
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000201')).toHaveLength(0);
    // A live message is answered as usual again.
    await h.say('32470000201', 'agent');
    await h.settle();
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000201')).toHaveLength(1);
  });

  it("measures the age on the service's clock: a service clock hours ahead of ours does not make a live message late", async () => {
    h = await startHarness();
    h.setServiceOffset(3 * 60 * 60);
    await h.say('32470000202', 'hello');
    await h.settle();
    const said = botMessagesTo(h, '32470000202');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).not.toMatch(APOLOGY);
  });

  it('sends nothing past the WhatsApp 24-hour window and hands the contact to people with a note that says why', async () => {
    h = await startHarness();
    await h.say('32470000203', 'hello');
    await h.settle();
    const before = botMessagesTo(h, '32470000203').length;
    await h.say('32470000203', 'are you there?');
    h.advance(25 * 60 * 60_000);
    await h.settle();
    expect(botMessagesTo(h, '32470000203')).toHaveLength(before);
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000203')).toHaveLength(1);
    expect((await h.running.store.getConversation('whatsapp:32470000203'))?.owner).toBe('agents');
    const notes = h.requests().filter((r) => r.method === 'POST' && /\/inbox\/mention\//.test(r.path));
    expect(JSON.stringify(notes.map((r) => r.params))).toMatch(/customer-service window is closed/);
  });
});
