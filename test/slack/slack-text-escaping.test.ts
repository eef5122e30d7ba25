import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderEscalationNotice } from '../../src/slack/escalation-blocks.js';
import type { EscalationNotice } from '../../src/slack/ports.js';
import { realRunner } from './real-command-runner.js';
import { FakeSlack, MANAGER, eventually, postSigned, slashCommand, startHarness, type Harness } from './slack-test-kit.js';

// What a customer (or an agent) can type that Slack would act on if it reached mrkdwn raw.
const PING = '<!channel>';
const MENTION = '<@U0BOSS>';
const LINK = '<https://evil.example/login|Open in Engage>';
const RAW = [PING, MENTION, LINK, '<!here>'];

const notice: EscalationNotice = {
  escalationId: 'esc-9',
  contactKey: 'whatsapp/32470000009',
  customerName: `${PING} Eve`,
  channel: 'whatsapp',
  reason: `explicit_request: "${MENTION}"`,
  summary: `Refund now ${LINK} <!here>`,
  transcript: [{ from: 'customer', text: `${PING} ${LINK}` }],
  permalink: 'https://app.engagor.com/messages/1001/permalink/2001/9009/',
  since: 1_700_000_000_000,
};

function expectNoRawMarkup(text: string): void {
  for (const raw of RAW) expect(text).not.toContain(raw);
}

/** Every mrkdwn text in the blocks (plain_text is shown as typed and never pings). */
function mrkdwnTexts(blocks: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  return out.join('\n');
}

type Block = { type: string; elements?: Array<{ action_id?: string; url?: string }> };

describe('customer and agent text on its way to Slack', () => {
  let fake: FakeSlack;
  let h: Harness | undefined;

  beforeEach(async () => {
    fake = new FakeSlack();
    await fake.start();
  });
  afterEach(async () => {
    await h?.app.stop();
    h = undefined;
    await fake.stop();
  });

  it('escapes a <!channel> customer in the notice, its fallback text included', async () => {
    h = await startHarness(fake);
    h.app.notifier.escalated(notice);
    await h.app.flushNotices();
    const body = fake.callsTo('/api/chat.postMessage')[0]?.body;
    expectNoRawMarkup(String(body?.text));
    expect(String(body?.text)).toContain('&lt;!channel&gt; Eve');
    expectNoRawMarkup(mrkdwnTexts(body?.blocks));
  });

  it('escapes an agent name in the closing-outcome line', async () => {
    h = await startHarness(fake);
    h.app.notifier.escalated(notice);
    await h.app.flushNotices();
    h.app.notifier.noticeUpdated('esc-9', `${PING} ${MENTION} took the conversation.`);
    await eventually(() => fake.callsTo('/api/chat.update').length === 1, 'the chat.update');
    const update = fake.callsTo('/api/chat.update')[0]?.body;
    expectNoRawMarkup(String(update?.text));
    expectNoRawMarkup(mrkdwnTexts(update?.blocks));
    expect(JSON.stringify(update?.blocks)).toContain('&lt;!channel&gt; &lt;@U0BOSS&gt; took the conversation.');
  });

  it('escapes the names and reasons in the escalations answer', async () => {
    const real = realRunner([MANAGER], {
      escalations: [{ contactKey: notice.contactKey, name: notice.customerName, channel: 'whatsapp', reason: notice.reason, sinceMs: 1 }],
    });
    h = await startHarness(fake, { commands: real.runner });
    await postSigned(h.port, slashCommand(fake, MANAGER, 'escalations', 'e9'));
    await eventually(() => fake.callsTo('/respond/e9').length === 1, 'the answer');
    const text = String(fake.callsTo('/respond/e9')[0]?.body.text);
    expectNoRawMarkup(text);
    expect(text).toContain('&lt;!channel&gt; Eve');
  });

  it.each([
    ['another host', 'https://evil.example/messages/1001/'],
    ['a look-alike host', 'https://app.engagor.com.evil.example/x'],
    ['credentials in the URL', 'https://app.engagor.com@evil.example/x'],
    ['plain http to the service', 'http://app.engagor.com/x'],
    ['a script', 'javascript:alert(1)'],
  ])('gives no Open in Engage button for a permalink on %s', (_what, permalink) => {
    const blocks = renderEscalationNotice({ ...notice, permalink }).blocks as Block[];
    const urls = blocks.flatMap((b) => b.elements ?? []).map((e) => e.url);
    expect(urls.filter(Boolean)).toEqual([]);
  });

  it('links a permalink on the service own tool or on the configured API origin', () => {
    const urlsOf = (permalink: string, origins: string[] = []) =>
      (renderEscalationNotice({ ...notice, permalink }, undefined, { permalinkOrigins: origins }).blocks as Block[])
        .flatMap((b) => b.elements ?? [])
        .map((e) => e.url)
        .filter(Boolean);
    expect(urlsOf(notice.permalink as string)).toEqual([notice.permalink]);
    expect(urlsOf('http://127.0.0.1:4010/messages/1001/permalink/2001/1/', ['http://127.0.0.1:4010'])).toEqual([
      'http://127.0.0.1:4010/messages/1001/permalink/2001/1/',
    ]);
    expect(urlsOf('http://127.0.0.1:4011/x', ['http://127.0.0.1:4010'])).toEqual([]);
  });
});
