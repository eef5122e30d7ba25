import { describe, it, expect } from 'vitest';
import { contextPacketSchema, renderNote } from '../../src/bot/index.js';
import type { ContextPacket, TranscriptLine } from '../../src/bot/index.js';
import { Chat, escalation } from './bot-fixtures.js';

const bytes = (s: string): number => new TextEncoder().encode(s).length;

describe('context packet for the agent', () => {
  it('carries reason, trigger words, intent, collected values, sentiment trend, summary and the stretch transcript', () => {
    const chat = new Chat();
    chat.say('hi', { sentiment: 'neutral' });
    chat.say('where is my parcel', { sentiment: 'neutral' });
    chat.say('AB-12345', { sentiment: 'negative' });
    chat.event({ kind: 'escalation-failed' });
    const esc = escalation(chat.say('this is terrible', { sentiment: 'negative' }));
    expect(esc).toBeDefined();
    const p = esc?.packet as ContextPacket;
    expect(contextPacketSchema.parse(p)).toEqual(p);
    expect(p).toMatchObject({
      reason: 'negative_sentiment',
      trigger: 'this is terrible',
      intent: 'order_status',
      collected: { order_number: 'AB-12345' },
      sentimentTrend: 'negative',
      channel: 'whatsapp',
      contactName: 'Ann',
      omittedLines: 0,
    });
    expect(p.summary).toMatch(/^Ann on whatsapp, escalated because the customer sounds unhappy: "this is terrible"/);
    // From the start of the conversation, not just the last lines.
    expect(p.transcript[0]).toMatchObject({ from: 'customer', text: 'hi' });
    expect(p.transcript.at(-1)).toMatchObject({ from: 'customer', text: 'this is terrible' });
    expect(p.transcript.some((l) => l.from === 'bot')).toBe(true);
  });

  it('starts the transcript at the current stretch, after a return from agents', () => {
    const chat = new Chat();
    chat.say('first stretch message');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    chat.transcript.push({ at: chat.now, from: 'agent', text: 'Solved!' });
    chat.now += 60_000;
    chat.event({ kind: 'returned-to-bot', reason: 'resolved' });
    const p = escalation(chat.say('agent again'))?.packet;
    expect(p?.transcript.map((l) => l.text)).not.toContain('first stretch message');
    expect(p?.transcript.map((l) => l.text)).not.toContain('Solved!');
    expect(p?.transcript.at(-1)?.text).toBe('agent again');
  });

  it('bounds a long stretch: the opening lines and the latest ones, the middle counted', () => {
    const chat = new Chat();
    chat.say('hi');
    for (let i = 0; i < 200; i++) chat.transcript.push({ at: chat.now + i, from: 'customer', text: `line ${i}` });
    chat.now += 1000;
    const p = escalation(chat.say('agent'))?.packet as ContextPacket;
    expect(p.transcript).toHaveLength(60);
    expect(p.transcript[0]?.text).toBe('hi');
    expect(p.transcript.at(-1)?.text).toBe('agent');
    expect(p.omittedLines).toBeGreaterThan(100);
  });
});

describe('the note on the mention', () => {
  const line = (i: number, text: string): TranscriptLine => ({ at: Date.UTC(2026, 10, 23, 9, i), from: i % 2 ? 'bot' : 'customer', text });
  const packet = (lines: TranscriptLine[]): ContextPacket => ({
    reason: 'explicit_request',
    trigger: 'agent',
    collected: { order_number: 'AB-12345' },
    sentimentTrend: 'worsening',
    sentiments: ['neutral', 'negative'],
    summary: 'Ann on web, escalated because the customer asked for a person.',
    channel: 'web',
    stretchStartedAt: Date.UTC(2026, 10, 23, 9, 0),
    transcript: lines,
    omittedLines: 0,
  });

  it('renders plain text with the reason, values, sentiment and transcript', () => {
    const note = renderNote(packet([line(0, 'hello'), line(1, 'Hi! How can I help?'), line(2, 'agent')]));
    expect(note).toBe(
      [
        'Bot escalation: explicit_request',
        'Ann on web, escalated because the customer asked for a person.',
        'Trigger: "agent"',
        'Collected: order_number=AB-12345',
        'Sentiment: worsening (neutral → negative)',
        '',
        'Transcript since 2026-11-23 09:00Z:',
        '[09:00Z] customer: hello',
        '[09:01Z] bot: Hi! How can I help?',
        '[09:02Z] customer: agent',
      ].join('\n'),
    );
  });

  it.each([1024, 4096])('stays within %i bytes, keeping the first and the latest lines', (max) => {
    const lines = Array.from({ length: 100 }, (_, i) => line(i, `${i === 0 ? 'FIRST' : i === 99 ? 'LAST' : 'ééé'} ${'x'.repeat(80)}`));
    const note = renderNote(packet(lines), max);
    expect(bytes(note)).toBeLessThanOrEqual(max);
    expect(note).toContain('FIRST');
    expect(note).toContain('LAST');
    expect(note).toMatch(/\(\d+ lines omitted\)/);
  });

  it('cuts even a huge single line without splitting a character', () => {
    const note = renderNote(packet([line(0, '€'.repeat(5000))]), 1024);
    expect(bytes(note)).toBeLessThanOrEqual(1024);
    expect(note.endsWith('…')).toBe(true);
    expect(note).not.toContain('\uFFFD');
  });
});
