// Customer-facing texts for every escalation outcome, per reason, overridable per channel.
import { z } from 'zod';
import { CHANNELS } from './types.js';

export const OUTCOMES = [
  'handover',
  'busy',
  'closed_queue',
  'closed_take_message',
  'closed_continue',
  'away_repeat',
  'message_taken',
  'released',
  'already_pending',
  'cancelled',
  'nothing_to_cancel',
  'failed',
  'returned',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

const channelTexts = z
  .object(
    Object.fromEntries(CHANNELS.map((c) => [c, z.string().min(1).optional()])) as Record<
      (typeof CHANNELS)[number],
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict();

const variant = z.union([z.string().min(1), z.object({ text: z.string().min(1), channels: channelTexts.optional() }).strict()]);
export type TextVariant = z.infer<typeof variant>;

const outcomeTextEntry = z.union([
  z.string().min(1),
  z
    .object({
      text: z.string().min(1),
      channels: channelTexts.optional(),
      reasons: z.record(z.string(), variant).optional(),
    })
    .strict(),
]);
export type OutcomeText = z.infer<typeof outcomeTextEntry>;

export const DEFAULT_OUTCOME_TEXTS: Record<Outcome, string> = {
  handover: "I'm passing you to a colleague. They'll answer right here in this chat.",
  busy: 'All our colleagues are busy right now. One of them will answer here as soon as possible.',
  closed_queue: "Our team is away right now. We're back {back}, and a colleague will pick up your conversation then.",
  closed_take_message: "Our team is away right now. We're back {back}. Leave your message here and a colleague will answer it then.",
  closed_continue: "Our team is away right now. We're back {back}. Until then, I'll do my best to help.",
  away_repeat: "Noted. Our team is still away; a colleague will follow up when they're back.",
  message_taken: "Thanks, {name}. I've passed your message on; a colleague will answer it here.",
  released: "We're open again. A colleague will be with you shortly.",
  already_pending: 'You\'re already in line for a colleague. Say "never mind" if you\'d rather continue with me.',
  cancelled: "OK, I've cancelled the request for a colleague. I'm still here to help.",
  nothing_to_cancel: 'There is nothing to cancel. How can I help?',
  failed: "Sorry, I couldn't reach a colleague just now. Please try again in a moment, or keep chatting with me.",
  returned: "You're back with the assistant. Is there anything else I can help with?",
};

export const outcomeTextsSchema = z
  .object(
    Object.fromEntries(OUTCOMES.map((o) => [o, outcomeTextEntry.default(DEFAULT_OUTCOME_TEXTS[o])])) as Record<
      Outcome,
      z.ZodDefault<typeof outcomeTextEntry>
    >,
  )
  .strict()
  .prefault({});
export type OutcomeTexts = z.infer<typeof outcomeTextsSchema>;

function pick(v: TextVariant, channel: string): string {
  if (typeof v === 'string') return v;
  return v.channels?.[channel as keyof typeof v.channels] ?? v.text;
}

/** The text for an outcome: the reason's channel text, the reason's text, the channel text, then the default. */
export function outcomeText(texts: OutcomeTexts, outcome: Outcome, reason: string, channel: string): string {
  const entry = texts[outcome];
  if (typeof entry === 'string') return entry;
  const byReason = entry.reasons?.[reason];
  if (byReason !== undefined) return pick(byReason, channel);
  return pick(entry, channel);
}
