import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EscalationNotice } from '../../src/slack/ports.js';
import { FakeSlack, MANAGER, STRANGER, blockAction, eventually, postSigned, startHarness, type Harness } from './slack-test-kit.js';

const notice: EscalationNotice = {
  escalationId: 'esc-1',
  contactKey: 'whatsapp/32470000001',
  customerName: 'Ann <script>',
  channel: 'whatsapp',
  reason: 'explicit_request: "talk to a human"',
  summary: 'Order 42 arrived broken; customer wants a refund.',
  transcript: [
    { from: 'customer', text: 'My order arrived broken', at: 1_700_000_000_000 },
    { from: 'bot', text: 'Sorry to hear that! What is your order number?' },
    { from: 'customer', text: 'I want to talk to a human' },
  ],
  permalink: 'https://app.engagor.com/messages/1001/permalink/2001/9001/',
  since: 1_700_000_000_000,
};

type Block = {
  type: string;
  elements?: Array<{ action_id?: string; text?: { text: string }; url?: string; value?: string }>;
  text?: { text: string };
};

describe('escalation notices and their buttons', () => {
  let fake: FakeSlack;
  let h: Harness;

  beforeEach(async () => {
    fake = new FakeSlack();
    await fake.start();
    h = await startHarness(fake);
  });
  afterEach(async () => {
    await h.app.stop();
    await fake.stop();
  });

  async function postNotice(): Promise<{ ts: string; blocks: Block[] }> {
    h.app.notifier.escalated(notice);
    await h.app.flushNotices();
    expect(fake.callsTo('/api/chat.postMessage')).toHaveLength(1);
    const call = fake.callsTo('/api/chat.postMessage')[0];
    return { ts: '1700000000.1001', blocks: call?.body.blocks as Block[] };
  }

  it('posts the customer, channel, reason, summary, transcript and three buttons to the escalation channel', async () => {
    const { blocks } = await postNotice();
    const call = fake.callsTo('/api/chat.postMessage')[0];
    expect(call?.body.channel).toBe('CESC');
    expect(call?.authorization).toBe('Bearer xoxb-test-token');
    expect([call?.body.unfurl_links, call?.body.unfurl_media].map(String)).toEqual(['false', 'false']);
    const all = JSON.stringify(blocks);
    expect(all).toContain('Ann &lt;script&gt;');
    expect(all).toContain('whatsapp/32470000001');
    expect(all).toContain('explicit_request');
    expect(all).toContain('Order 42 arrived broken');
    expect(all).toContain('I want to talk to a human');
    const actions = blocks.find((block) => block.type === 'actions');
    expect(actions?.elements?.map((element) => element.text?.text)).toEqual(['Open in Engage', 'Return to bot', 'Mark resolved']);
    expect(actions?.elements?.[0]?.url).toBe(notice.permalink);
    expect(String(call?.body.text)).toContain('Escalation: Ann &lt;script&gt; on whatsapp');
  });

  it('returns the conversation to the bot when a manager clicks, audits it and replaces the notice without buttons', async () => {
    const { ts, blocks } = await postNotice();
    const value = blocks.find((b) => b.type === 'actions')?.elements?.[1]?.value;
    const res = await postSigned(h.port, blockAction(fake, MANAGER, 'engage_return_to_bot', value, { ts, blocks }, 'c1'));
    expect(res.status).toBe(200);
    await eventually(() => fake.callsTo('/respond/c1').length === 1, 'the replaced notice');
    expect(h.bridge.calls).toEqual([`returnToBot whatsapp/32470000001 by ${MANAGER}`]);
    const replaced = fake.callsTo('/respond/c1')[0]?.body as { replace_original: boolean; blocks: Block[]; text: string };
    expect(replaced.replace_original).toBe(true);
    expect(replaced.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(replaced.blocks)).toContain(`<@${MANAGER}> returned the conversation to the bot`);
    expect(JSON.stringify(replaced.blocks)).toContain('Order 42 arrived broken');
    expect(h.audit).toContainEqual({
      at: 1_700_000_000_000,
      actor: `slack:${MANAGER}`,
      action: 'escalation.return_to_bot',
      subject: 'escalation esc-1 (whatsapp/32470000001)',
      result: 'ok',
    });
  });

  it('marks the escalation resolved when a manager clicks Mark resolved', async () => {
    const { ts, blocks } = await postNotice();
    const value = blocks.find((b) => b.type === 'actions')?.elements?.[2]?.value;
    await postSigned(h.port, blockAction(fake, MANAGER, 'engage_mark_resolved', value, { ts, blocks }, 'c2'));
    await eventually(() => fake.callsTo('/respond/c2').length === 1, 'the replaced notice');
    expect(h.bridge.calls).toEqual([`markResolved esc-1 by ${MANAGER}`]);
    expect(JSON.stringify(fake.callsTo('/respond/c2')[0]?.body)).toContain('marked the escalation resolved');
    expect(h.audit).toContainEqual(expect.objectContaining({ action: 'escalation.mark_resolved', result: 'ok' }));
  });

  it('acks the Open in Engage URL button and does nothing else', async () => {
    const { ts, blocks } = await postNotice();
    const res = await postSigned(h.port, blockAction(fake, MANAGER, 'engage_open_in_engage', undefined, { ts, blocks }, 'c3'));
    expect(res.status).toBe(200);
    expect(h.bridge.calls).toEqual([]);
    expect(fake.callsTo('/respond/c3')).toHaveLength(0);
  });

  it('refuses a click by a non-manager ephemerally, audits it and leaves the notice as it is', async () => {
    const { ts, blocks } = await postNotice();
    const value = blocks.find((b) => b.type === 'actions')?.elements?.[1]?.value;
    await postSigned(h.port, blockAction(fake, STRANGER, 'engage_return_to_bot', value, { ts, blocks }, 'c4'));
    await eventually(() => fake.callsTo('/respond/c4').length === 1, 'the refusal');
    expect(fake.callsTo('/respond/c4')[0]?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(fake.callsTo('/respond/c4')[0]?.body.text)).toContain('only bridge managers may return the conversation to the bot');
    expect(h.bridge.calls).toEqual([]);
    expect(h.audit).toContainEqual(
      expect.objectContaining({
        actor: `slack:${STRANGER}`,
        action: 'escalation.return_to_bot',
        result: 'refused',
        reason: 'not a manager',
      }),
    );
  });

  it('tells the manager in a sentence when the bridge action fails, and keeps the buttons', async () => {
    const { ts, blocks } = await postNotice();
    h.bridge.failNext = Object.assign(new Error('raw details'), { humanMessage: 'Engage is not answering; try again in a minute.' });
    const value = blocks.find((b) => b.type === 'actions')?.elements?.[1]?.value;
    await postSigned(h.port, blockAction(fake, MANAGER, 'engage_return_to_bot', value, { ts, blocks }, 'c5'));
    await eventually(() => fake.callsTo('/respond/c5').length === 1, 'the failure answer');
    expect(fake.callsTo('/respond/c5')[0]?.body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'Could not return the conversation to the bot: Engage is not answering; try again in a minute.',
    });
    expect(h.audit).toContainEqual(
      expect.objectContaining({
        action: 'escalation.return_to_bot',
        result: 'failed',
        reason: 'Could not return the conversation to the bot: Engage is not answering; try again in a minute.',
      }),
    );
  });

  it('answers a button with an unreadable value without calling the bridge', async () => {
    const { ts, blocks } = await postNotice();
    await postSigned(h.port, blockAction(fake, MANAGER, 'engage_mark_resolved', '{not json', { ts, blocks }, 'c6'));
    await eventually(() => fake.callsTo('/respond/c6').length === 1, 'the answer');
    expect(h.bridge.calls).toEqual([]);
    expect(String(fake.callsTo('/respond/c6')[0]?.body.text)).toContain('could not be read');
  });

  it('falls back to chat.update when response_url refuses the replacement', async () => {
    const { ts, blocks } = await postNotice();
    fake.script('/respond/c7', { status: 410, body: { ok: false } });
    const value = blocks.find((b) => b.type === 'actions')?.elements?.[2]?.value;
    await postSigned(h.port, blockAction(fake, MANAGER, 'engage_mark_resolved', value, { ts, blocks }, 'c7'));
    await eventually(() => fake.callsTo('/api/chat.update').length === 1, 'the chat.update');
    const update = fake.callsTo('/api/chat.update')[0]?.body as { channel: string; ts: string; blocks: Block[] };
    expect(update.channel).toBe('CESC');
    expect(update.ts).toBe(ts);
    expect(update.blocks.some((b) => b.type === 'actions')).toBe(false);
  });

  it('rewrites a posted notice without buttons when the bridge reports the outcome', async () => {
    await postNotice();
    h.app.notifier.noticeUpdated('esc-1', 'An agent resolved this conversation in Engage.');
    await eventually(() => fake.callsTo('/api/chat.update').length === 1, 'the chat.update');
    const update = fake.callsTo('/api/chat.update')[0]?.body as { ts: string; blocks: Block[] };
    expect(update.ts).toBe('1700000000.1001');
    expect(update.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(update.blocks)).toContain('An agent resolved this conversation in Engage.');
  });

  it('announces a stuck escalation in the thread of its notice', async () => {
    await postNotice();
    h.app.notifier.escalationStuck(notice, 30);
    await eventually(() => fake.callsTo('/api/chat.postMessage').length === 2, 'the stuck notice');
    const stuck = fake.callsTo('/api/chat.postMessage')[1]?.body;
    expect(stuck?.thread_ts).toBe('1700000000.1001');
    expect(String(stuck?.text)).toContain('no human activity for 30 minutes');
  });

  it('announces a revoked token and a paused bridge', async () => {
    h.app.notifier.tokenRevoked();
    h.app.notifier.bridgePaused('Engage answered 401 three times in a row.');
    await eventually(() => fake.callsTo('/api/chat.postMessage').length === 2, 'both announcements');
    const texts = fake.callsTo('/api/chat.postMessage').map((call) => String(call.body.text));
    expect(texts[0]).toContain('Engage access token revoked');
    expect(texts[0]).toContain('ENGAGE_ACCESS_TOKEN');
    expect(texts[1]).toContain('Bridge paused: Engage answered 401 three times in a row.');
  });
});
