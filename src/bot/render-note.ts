// The context packet as the plain-text note added to the mention, bounded in bytes.
import type { ContextPacket } from './decision.js';

const encoder = new TextEncoder();
const bytes = (s: string): number => encoder.encode(s).length;

const stamp = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')}Z`;

function render(packet: ContextPacket, lines: ContextPacket['transcript'], omitted: number): string {
  const collected = Object.entries(packet.collected);
  const head = [
    `Bot escalation: ${packet.reason}`,
    packet.summary,
    ...(packet.trigger ? [`Trigger: "${packet.trigger}"`] : []),
    ...(packet.intent ? [`Intent: ${packet.intent}`] : []),
    ...(collected.length > 0 ? [`Collected: ${collected.map(([k, v]) => `${k}=${v}`).join(', ')}`] : []),
    `Sentiment: ${packet.sentimentTrend}${packet.sentiments.length > 0 ? ` (${packet.sentiments.join(' → ')})` : ''}`,
    '',
    `Transcript since ${stamp(packet.stretchStartedAt)}${omitted > 0 ? ` (${omitted} lines omitted)` : ''}:`,
  ];
  const body = lines.map((l) => `[${stamp(l.at).slice(11)}] ${l.from}: ${l.text}`);
  return [...head, ...body].join('\n');
}

/** Cuts a string to at most `max` UTF-8 bytes without splitting a character. */
export function truncateBytes(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  let out = '';
  let used = 0;
  const budget = max - bytes('…');
  for (const ch of text) {
    const n = bytes(ch);
    if (used + n > budget) break;
    out += ch;
    used += n;
  }
  return `${out}…`;
}

/** Renders the note; drops transcript lines after the first one until it fits in `maxBytes` (4 KB by default). */
export function renderNote(packet: ContextPacket, maxBytes = 4096): string {
  let lines = [...packet.transcript];
  let omitted = packet.omittedLines;
  let text = render(packet, lines, omitted);
  while (bytes(text) > maxBytes && lines.length > 2) {
    lines = [lines[0] as (typeof lines)[number], ...lines.slice(2)];
    omitted++;
    text = render(packet, lines, omitted);
  }
  return truncateBytes(text, maxBytes);
}
