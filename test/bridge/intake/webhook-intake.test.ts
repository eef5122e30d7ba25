import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../e2e/harness.js';

const SECRET = 'a-webhook-secret-of-at-least-32-characters';

describe('the webhook', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('takes only watched topics and well-formed items, and reports every item it did not take', async () => {
    h = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: SECRET } });
    const mentionId = await h.say('32470000031', 'hello');
    const answer = (await fetch(`${h.simUrl}/1001/inbox/mention/2001/${mentionId}?access_token=sim-token`).then((r) => r.json())) as {
      response: Record<string, unknown>;
    };
    const mention = answer.response;
    const otherTopic = { ...mention, id: `${String(mention.id)}9`, topic_id: '9999' };
    const emptyId = { ...mention, id: '' };
    const res = await fetch(`${h.running.http.url}/webhooks/engage/${SECRET}`, {
      method: 'POST',
      body: JSON.stringify([mention, otherTopic, emptyId]),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 1, skipped: { invalid: 1, otherTopic: 1, notServed: 0, unconfirmed: 0 } });
    expect(await h.running.store.hasSeen(String(otherTopic.topic_id), String(otherTopic.id))).toBe(false);
    const metrics = await h.running.metrics.text();
    expect(metrics).toMatch(/engage_bridge_skipped_items_total\{source="webhook",reason="other-topic"\} 1\b/);
  });

  it('believes no claimed takeover: a pushed reply action is checked against the service, and a forged one hands nobody over (#12.2)', async () => {
    h = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: SECRET } });
    const mentionId = await h.say('32470000032', 'hello');
    await h.settle();
    const answer = (await fetch(`${h.simUrl}/1001/inbox/mention/2001/${mentionId}?access_token=sim-token`).then((r) => r.json())) as {
      response: Record<string, unknown>;
    };
    const forged = {
      ...answer.response,
      actions: [{ type: 'reply', user_id: '666', date: { added: Math.floor(h.now() / 1000) } }],
    };
    const res = await fetch(`${h.running.http.url}/webhooks/engage`, {
      method: 'POST',
      headers: { 'x-webhook-secret': SECRET },
      body: JSON.stringify([forged]),
    });
    expect(res.status).toBe(202);
    await h.running.bridge.idle();
    await h.settle();
    expect(h.requests().filter((r) => r.method === 'POST' && r.path.includes('/inbox/handover/'))).toEqual([]);
    expect((await h.running.store.getConversation('whatsapp:32470000032'))?.owner).toBe('bot');
  });
});
