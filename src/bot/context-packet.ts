// The context a person needs to take over: why, in whose words, what the bot learnt, and the stretch's transcript.
import type { ContextPacket } from './decision.js';
import type { DialogState } from './dialog-state.js';
import type { Sentiment, TranscriptLine } from './types.js';

export const REASON_LABELS: Readonly<Record<string, string>> = {
  explicit_request: 'the customer asked for a person',
  quick_reply: 'the customer picked "talk to an agent"',
  repeated_fallback: 'the bot did not understand several times in a row',
  negative_sentiment: 'the customer sounds unhappy',
  contact_tag: 'the contact is tagged for personal service',
  always_human: 'a topic that people always handle',
  question_failed: 'the customer could not give a valid answer',
  message_taken: 'a message left out of hours',
};

const LINE_CHARS = 500;

function trend(sentiments: Sentiment[]): ContextPacket['sentimentTrend'] {
  if (sentiments.length === 0) return 'unknown';
  const score = (s: Sentiment): number => (s === 'negative' ? -1 : s === 'positive' ? 1 : 0);
  const last = sentiments.slice(-2);
  if (last.length === 2 && last.every((s) => s === 'negative')) return 'negative';
  const half = Math.floor(sentiments.length / 2);
  if (half === 0) return sentiments[0] === 'negative' ? 'negative' : 'steady';
  const avg = (xs: Sentiment[]): number => xs.reduce((a, s) => a + score(s), 0) / xs.length;
  const delta = avg(sentiments.slice(half)) - avg(sentiments.slice(0, half));
  return delta < 0 ? 'worsening' : delta > 0 ? 'improving' : 'steady';
}

/** The stretch's lines, bounded: the opening lines and the most recent ones, the middle counted as omitted. */
export function transcriptWindow(
  lines: readonly TranscriptLine[],
  since: number,
  maxLines: number,
): { transcript: TranscriptLine[]; omittedLines: number } {
  const stretch = lines
    .filter((l) => l.at >= since)
    .sort((a, b) => a.at - b.at)
    .map((l) => (l.text.length > LINE_CHARS ? { ...l, text: `${l.text.slice(0, LINE_CHARS)}…` } : l));
  if (stretch.length <= maxLines) return { transcript: stretch, omittedLines: 0 };
  const head = Math.max(1, Math.floor(maxLines / 3));
  const tail = maxLines - head;
  return {
    transcript: [...stretch.slice(0, head), ...stretch.slice(stretch.length - tail)],
    omittedLines: stretch.length - head - tail,
  };
}

export interface PacketInput {
  reason: string;
  trigger: string;
  intent?: string | undefined;
  state: DialogState;
  channel: string;
  contactName?: string | undefined;
  language?: string | undefined;
  transcript: readonly TranscriptLine[];
  maxLines: number;
}

export function buildContextPacket(input: PacketInput): ContextPacket {
  const { state } = input;
  const sentiments = state.sentiments;
  const who = input.contactName ?? 'The customer';
  const label = REASON_LABELS[input.reason] ?? input.reason.replace(/_/g, ' ');
  const words = input.trigger ? `: "${input.trigger.slice(0, 200)}"` : '';
  const collected = Object.entries(state.collected).map(([k, v]) => `${k} ${v}`);
  const sentimentTrend = trend(sentiments);
  const summary = [
    `${who} on ${input.channel}, escalated because ${label}${words}`,
    ...(input.intent ? [`topic ${input.intent}`] : []),
    ...(collected.length > 0 ? [`collected ${collected.join(', ')}`] : []),
    ...(sentimentTrend !== 'unknown' ? [`mood ${sentimentTrend}`] : []),
    ...(input.language ? [`language ${input.language}`] : []),
  ].join('; ');
  return {
    reason: input.reason,
    trigger: input.trigger,
    ...(input.intent ? { intent: input.intent } : {}),
    collected: { ...state.collected },
    sentimentTrend,
    sentiments: [...sentiments],
    summary: `${summary}.`,
    channel: input.channel,
    ...(input.contactName ? { contactName: input.contactName } : {}),
    ...(input.language ? { language: input.language } : {}),
    stretchStartedAt: state.stretchStartedAt,
    ...transcriptWindow(input.transcript, state.stretchStartedAt, input.maxLines),
  };
}
