import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS, mrkdwn, truncate } from '../../src/slack/block-kit-text.js';
import {
  closeNoticeBlocks,
  decodeButtonValue,
  encodeButtonValue,
  renderEscalationNotice,
  transcriptExcerpt,
} from '../../src/slack/escalation-blocks.js';
import type { EscalationNotice, TranscriptLine } from '../../src/slack/ports.js';

type AnyBlock = {
  type: string;
  text?: { text: string };
  fields?: Array<{ text: string }>;
  elements?: Array<{ text?: string | { text: string }; value?: string; url?: string }>;
};

function assertWithinLimits(message: { text: string; blocks: unknown[] }): void {
  expect(message.text.length).toBeLessThanOrEqual(LIMITS.fallbackText);
  expect(message.blocks.length).toBeLessThanOrEqual(LIMITS.blocks);
  for (const block of message.blocks as AnyBlock[]) {
    if (block.type === 'header') expect(block.text?.text.length).toBeLessThanOrEqual(LIMITS.headerText);
    if (block.type === 'section' && block.text) expect(block.text.text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(LIMITS.fieldText);
    if (block.fields) expect(block.fields.length).toBeLessThanOrEqual(10);
    if (block.type === 'actions') {
      expect(block.elements?.length).toBeLessThanOrEqual(25);
      for (const element of block.elements ?? []) {
        const label = typeof element.text === 'object' ? element.text.text : '';
        expect(label.length).toBeLessThanOrEqual(LIMITS.buttonText);
        if (element.value !== undefined) expect(element.value.length).toBeLessThanOrEqual(LIMITS.buttonValue);
      }
    }
  }
}

const base: EscalationNotice = {
  escalationId: 'esc-1',
  contactKey: 'web/v1',
  customerName: 'Ann',
  channel: 'web',
  reason: 'vip',
  summary: 'VIP customer asked about an order.',
  transcript: [{ from: 'customer', text: 'hello' }],
  permalink: 'https://app.engagor.com/messages/1001/permalink/2001/9001/',
  since: 1_700_000_000_000,
};

describe('Block Kit rendering of escalation notices', () => {
  it('stays within every Block Kit limit whatever the customer wrote', () => {
    const line = fc.record({
      from: fc.constantFrom<TranscriptLine['from']>('customer', 'bot', 'agent'),
      text: fc.string({ maxLength: 3000 }),
    });
    fc.assert(
      fc.property(
        fc.record({
          customerName: fc.string({ maxLength: 500 }),
          channel: fc.string({ maxLength: 100 }),
          reason: fc.string({ maxLength: 3000 }),
          summary: fc.string({ maxLength: 6000 }),
          transcript: fc.array(line, { maxLength: 200 }),
          contactKey: fc.string({ maxLength: 300 }),
        }),
        (parts) => {
          const notice = { ...base, ...parts };
          assertWithinLimits(renderEscalationNotice(notice));
          assertWithinLimits(renderEscalationNotice(notice, 'closed by <@U1>'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the newest transcript lines and says when earlier ones were left out', () => {
    const transcript: TranscriptLine[] = Array.from({ length: 100 }, (_, i) => ({
      from: 'customer',
      text: `message number ${i} ${'x'.repeat(100)}`,
    }));
    const excerpt = transcriptExcerpt(transcript);
    expect(excerpt.length).toBeLessThanOrEqual(LIMITS.sectionText);
    expect(excerpt).toContain('message number 99');
    expect(excerpt).not.toContain('message number 0 ');
    expect(excerpt).toContain('earlier messages omitted');
  });

  it('escapes customer text so it can neither mention nor link', () => {
    expect(mrkdwn('<!channel> & <https://evil>', 100)).toBe('&lt;!channel&gt; &amp; &lt;https://evil&gt;');
    expect(mrkdwn('&&&&&', 7)).toBe('&amp;…');
  });

  it('keeps customer fields on their line, without markup or clickable links, the fallback text included', () => {
    const hostile = '*bold* _it_ ~gone~ `code` <https://evil.example|click> https://evil.example/x www.evil.com evil.com/y a@evil.com';
    const notice = {
      ...base,
      customerName: 'Eve\n*Reason*\nrefund_approved',
      contactKey: 'web/v1\r\n*Channel*',
      summary: `line one\n\n*Agent:* fake\u2028${hostile}`,
      transcript: [{ from: 'customer' as const, text: `hi\n*Agent:* your refund is approved ${hostile}` }],
    };
    const message = renderEscalationNotice(notice);
    const blocks = message.blocks as AnyBlock[];
    const fields = blocks.find((b) => b.fields)?.fields ?? [];
    for (const field of fields) expect(field.text.split('\n')).toHaveLength(2);
    const summary = blocks.find((b) => b.text?.text.startsWith('*Summary*'))?.text?.text ?? '';
    expect(summary.split('\n')).toHaveLength(2);
    const transcript = blocks.find((b) => b.text?.text.startsWith('*Transcript'))?.text?.text ?? '';
    expect(transcript.split('\n')).toEqual(['*Transcript (latest)*', expect.stringMatching(/^\*Customer:\* hi /)]);
    const customerParts = [
      ...fields.slice(0, 3).map((f) => f.text.split('\n')[1] ?? ''),
      summary.slice(10),
      transcript.split('\n')[1]?.slice(14) ?? '',
      message.text,
    ];
    for (const text of customerParts) {
      expect(text).not.toMatch(/[*~`<>]/);
      expect(text).not.toMatch(/(^|\s)_|_(\s|$)/);
      for (const link of ['https://', 'evil.example', 'evil.com', 'www.', '@evil']) expect(text).not.toContain(link);
    }
    expect(message.text).not.toContain('\n');
    expect(summary).toContain('&lt;https∶//evil․example|click&gt;');
  });

  it('cuts text without splitting an emoji', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…');
    expect(truncate('short', 10)).toBe('short');
  });

  it('leaves out the Open in Engage button when the permalink is not a web address', () => {
    const { permalink: _unused, ...withoutLink } = base;
    const rendered = renderEscalationNotice({ ...withoutLink, permalink: 'javascript:alert(1)' });
    const labels = JSON.stringify(rendered.blocks);
    expect(labels).not.toContain('Open in Engage');
    expect(labels).toContain('Return to bot');
  });

  it('round-trips the button value and rejects anything else', () => {
    const raw = encodeButtonValue({ escalationId: 'e"1', contactKey: 'whatsapp/3247' });
    expect(decodeButtonValue(raw)).toEqual({ escalationId: 'e"1', contactKey: 'whatsapp/3247' });
    expect(decodeButtonValue('{"e":1}')).toBeUndefined();
    expect(decodeButtonValue(42)).toBeUndefined();
  });

  it('closes a posted notice by dropping its buttons and appending who did what', () => {
    const posted = renderEscalationNotice(base).blocks;
    const closed = closeNoticeBlocks(posted, '<@U1> returned the conversation to the bot') as AnyBlock[];
    expect(closed.some((block) => block.type === 'actions')).toBe(false);
    expect(closed.at(-1)).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: '<@U1> returned the conversation to the bot' }] });
    expect(closed.length).toBe(posted.length);
  });
});
