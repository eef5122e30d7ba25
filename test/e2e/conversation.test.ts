import { describe, it, expect, afterEach } from 'vitest';
import { startHarness, botMessagesTo, callsOf, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('a conversation with the bot', () => {
  it('greets a new customer with the main menu after claiming the contact', async () => {
    h = await startHarness();
    const mentionId = await h.say('32470000001', 'hello');
    await h.settle();
    const replies = botMessagesTo(h, '32470000001');
    expect(replies).toHaveLength(1);
    expect(replies[0]!.message).toContain('Ann');
    expect(replies[0]!.mention_id).toBe(mentionId);
    expect(replies[0]!.buttons.map((b) => b.title)).toEqual(['Opening hours', 'Order status', 'Talk to an agent']);
    expect(callsOf(h, 'DELETE', '/inbox/handover/whatsapp/32470000001')).toHaveLength(1);
    const conv = await h.running.store.getConversation('whatsapp:32470000001');
    expect(conv?.owner).toBe('bot');
  });

  it('answers a quick reply and navigates the menu', async () => {
    h = await startHarness();
    await h.say('32470000002', 'hi');
    await h.settle();
    await h.click('32470000002', 'b1');
    await h.settle();
    const replies = botMessagesTo(h, '32470000002');
    expect(replies).toHaveLength(2);
    expect(replies[1]!.message).toMatch(/open/i);
  });

  it('escalates on request: the customer is told, the note lands on the mention, then handover', async () => {
    h = await startHarness();
    await h.say('32470000003', 'hello');
    await h.settle();
    const mentionId = await h.say('32470000003', 'I want to talk to a human');
    await h.settle();
    const replies = botMessagesTo(h, '32470000003');
    expect(replies).toHaveLength(2);
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000003')).toHaveLength(1);
    const requests = h.requests();
    const lastReply = requests.findLastIndex((r) => r.method === 'POST' && r.path.endsWith('/publisher/add'));
    const handover = requests.findIndex((r) => r.method === 'POST' && r.path.includes('/inbox/handover/'));
    expect(lastReply).toBeLessThan(handover);
    const mention = h.sim.state.mentions.get(mentionId)!;
    expect(mention.actions.some((a) => a.type === 'note' && (a.extra ?? '').includes('explicit'))).toBe(true);
    const esc = await h.running.store.listEscalations({ status: 'open' });
    expect(esc).toHaveLength(1);
    expect((await h.running.store.getConversation('whatsapp:32470000003'))?.owner).toBe('agents');
  });

  it('escalates from the "Talk to an agent" quick reply', async () => {
    h = await startHarness();
    await h.say('32470000004', 'hello');
    await h.settle();
    await h.click('32470000004', 'Talk to an agent');
    await h.settle();
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000004')).toHaveLength(1);
    const [esc] = await h.running.store.listEscalations({ status: 'open' });
    expect(esc?.reason).toBe('quick_reply');
  });

  it('stays silent while agents own the contact, including after an agent replied in the tool', async () => {
    h = await startHarness();
    await h.say('32470000005', 'hello');
    await h.settle();
    await h.say('32470000005', 'agent please');
    await h.settle();
    const before = botMessagesTo(h, '32470000005').length;
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000005', text: 'Hi, Bob here.' });
    await h.say('32470000005', 'thanks Bob, where is my order?');
    await h.settle();
    await h.say('32470000005', 'hello?');
    await h.settle();
    expect(botMessagesTo(h, '32470000005')).toHaveLength(before);
    const [esc] = await h.running.store.listEscalations({ contactKey: 'whatsapp:32470000005' });
    expect(esc?.status).toBe('taken');
  });

  it('steps aside at once when an agent answers a contact the bot owns (implicit takeover)', async () => {
    h = await startHarness();
    await h.say('32470000006', 'hello');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000006', text: 'Let me help you myself.' });
    await h.settle();
    expect((await h.running.store.getConversation('whatsapp:32470000006'))?.owner).toBe('agents');
    await h.say('32470000006', 'great, thanks');
    await h.settle();
    expect(botMessagesTo(h, '32470000006')).toHaveLength(1);
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000006')).toHaveLength(1);
  });

  it('does not claim a contact that agents hold in the service', async () => {
    h = await startHarness();
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: '32470000007', owner: 'agents' });
    await h.say('32470000007', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '32470000007')).toHaveLength(0);
    expect(callsOf(h, 'DELETE', '/inbox/handover/whatsapp/32470000007')).toHaveLength(0);
  });

  it('comes back with a "back with the assistant" turn after the agent resolves', async () => {
    h = await startHarness();
    await h.say('32470000008', 'hello');
    await h.settle();
    await h.say('32470000008', 'agent');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000008', text: 'Sorted!' });
    await h.settle();
    await h.control('/_sim/agent/resolve', { channel: 'whatsapp', service_id: '32470000008' });
    const report = await h.running.bridge.reconciler.run();
    expect(report.resolved).toBe(1);
    // "Back with the assistant", then the satisfaction question (on by default).
    await waitFor('the back-with-the-assistant reply', () => botMessagesTo(h!, '32470000008').length === 4);
    expect(callsOf(h, 'DELETE', '/inbox/handover/whatsapp/32470000008')).toHaveLength(2);
    expect((await h.running.store.getConversation('whatsapp:32470000008'))?.owner).toBe('bot');
    await h.say('32470000008', 'one more question');
    await h.settle();
    expect(botMessagesTo(h, '32470000008').length).toBe(5);
  });

  it('returns an idle contact to the bot after the configured time', async () => {
    h = await startHarness({ env: { BRIDGE_IDLE_RETURN_MINUTES: '30' } });
    await h.say('32470000009', 'hello');
    await h.settle();
    await h.say('32470000009', 'agent');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000009', text: 'Alice here.' });
    await h.settle();
    h.advance(10 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(0);
    h.advance(25 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(1);
    // The return turn; the satisfaction question (on by default) may follow it at once, so no exact count.
    await waitFor('the return turn', () => botMessagesTo(h!, '32470000009').some((m) => /back with the assistant/i.test(m.message)));
    expect((await h.running.store.getConversation('whatsapp:32470000009'))?.owner).toBe('bot');
  });

  it('accepts the same mention from the webhook and the poller and answers it once', async () => {
    h = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: 'hook-secret-of-at-least-32-characters' } });
    const mentionId = await h.say('32470000010', 'hello');
    const answer = (await fetch(`${h.simUrl}/1001/inbox/mention/2001/${mentionId}?access_token=sim-token`).then((r) => r.json())) as {
      response: unknown;
    };
    const mention = answer.response;
    const res = await fetch(`${h.running.http.url}/webhooks/engage/hook-secret-of-at-least-32-characters`, {
      method: 'POST',
      body: JSON.stringify([mention]),
    });
    expect(res.status).toBe(202);
    await h.running.bridge.idle();
    await h.settle();
    await h.settle();
    expect(botMessagesTo(h, '32470000010')).toHaveLength(1);
  });
});

describe('a person who writes first', () => {
  it('keeps the bot from claiming a contact an agent wrote to before the customer did', async () => {
    h = await startHarness();
    await h.say('32470000011', 'hello');
    await h.settle();
    // the agent answers a second, new customer directly from the service's tool
    await h.control('/_sim/inbound', { channel: 'whatsapp', author: { id: '32470000012', name: 'Bo' }, text: 'hi' });
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000012', text: 'Hello Bo, Alice here.' });
    await h.settle();
    await h.say('32470000012', 'thanks Alice', 'whatsapp', 'Bo');
    await h.settle();
    expect(botMessagesTo(h, '32470000012')).toHaveLength(0);
    expect((await h.running.store.getConversation('whatsapp:32470000012'))?.owner).toBe('agents');
  });
});

describe('the idle return (#11.6)', () => {
  it('leaves an escalation nobody answered for two hours with the people', async () => {
    h = await startHarness({ env: { BRIDGE_IDLE_RETURN_MINUTES: '60' } });
    await h.say('32470000013', 'hello');
    await h.settle();
    await h.say('32470000013', 'agent');
    await h.settle();
    const claims = callsOf(h, 'DELETE', '/inbox/handover/whatsapp/32470000013').length;
    const said = botMessagesTo(h, '32470000013').length;
    h.advance(2 * 60 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(0);
    await h.settle();
    expect((await h.running.store.getConversation('whatsapp:32470000013'))?.owner).toBe('agents');
    expect(callsOf(h, 'DELETE', '/inbox/handover/whatsapp/32470000013')).toHaveLength(claims);
    expect(botMessagesTo(h, '32470000013')).toHaveLength(said);
  });

  it('counts idle time from the answer as the bridge saw it, not by the clock of the service', async () => {
    h = await startHarness({ env: { BRIDGE_IDLE_RETURN_MINUTES: '30' } });
    await h.say('32470000014', 'hello');
    await h.settle();
    await h.say('32470000014', 'agent');
    await h.settle();
    // People answer 50 minutes later; the service's clock runs 10 minutes ahead of ours.
    h.advance(50 * 60_000);
    h.setServiceOffset(600);
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000014', text: 'Sorry for the wait, Alice here.' });
    await h.settle();
    h.advance(25 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(0);
    expect((await h.running.store.getConversation('whatsapp:32470000014'))?.owner).toBe('agents');
    h.advance(10 * 60_000);
    expect((await h.running.bridge.reconciler.run()).idle).toBe(1);
    // The return turn; the satisfaction question (on by default) may follow it at once, so no exact count.
    await waitFor('the return turn', () => botMessagesTo(h!, '32470000014').some((m) => /back with the assistant/i.test(m.message)));
    expect((await h.running.store.getConversation('whatsapp:32470000014'))?.owner).toBe('bot');
  });
});
