// What the brain remembers between turns. Plain JSON (the store persists it), versioned.
import { z } from 'zod';
import { PRIORITIES } from './flow-schema.js';

const button = z.object({ id: z.string(), title: z.string(), payload: z.string().optional() });

export const pendingEscalationSchema = z.object({
  reason: z.string(),
  /** The customer's words (or the event) that triggered it. */
  words: z.string(),
  priority: z.enum(PRIORITIES),
  tags: z.array(z.string()),
  note: z.string().optional(),
  intent: z.string().optional(),
  since: z.number(),
  /** queued: waiting for opening time (owner still the bot); handed-over: agents asked, nobody took it yet. */
  status: z.enum(['queued', 'handed-over']),
  releaseAt: z.number().optional(),
});
export type PendingEscalation = z.infer<typeof pendingEscalationSchema>;

export const dialogStateSchema = z.object({
  v: z.literal(1),
  /** bot: the bot talks; escalated: handed to agents, nobody took it yet; agents: a person took it. */
  mode: z.enum(['bot', 'escalated', 'agents']),
  stretchStartedAt: z.number(),
  lastActivityAt: z.number(),
  turn: z.number().int(),
  /** The quick replies offered last, with the menu they came from. */
  offer: z
    .object({
      menu: z.string(),
      buttons: z.array(button),
      at: z.number(),
      cannedResponseId: z.string().optional(),
      numbered: z.boolean(),
    })
    .optional(),
  /** Menus offered in this conversation, with when each was last offered, so a click on an older message can be recognised. */
  menusOffered: z.record(z.string(), z.number()),
  question: z.object({ name: z.string(), attempts: z.number().int(), askedAt: z.number() }).optional(),
  collected: z.record(z.string(), z.string()),
  lastIntent: z.string().optional(),
  fallbacks: z.number().int(),
  sentiments: z.array(z.enum(['positive', 'neutral', 'negative'])),
  pendingEscalation: pendingEscalationSchema.optional(),
  /** Out of hours with the take-a-message policy: the next message is the one to pass on. */
  takingMessage: pendingEscalationSchema.omit({ status: true, releaseAt: true }).optional(),
  awaySentInStretch: z.boolean(),
  contactTagEscalated: z.boolean(),
  recentMentionIds: z.array(z.string()),
  /** The conversation's language, and what chose it (a defaulted one is chosen again from the next long message). */
  language: z.string().optional(),
  languageSource: z.enum(['choice', 'contact', 'mention', 'detected', 'default']).optional(),
  /** The reason of the last hand-over to people, for the survey after their stretch. */
  lastEscalationReason: z.string().optional(),
  /** A satisfaction question sent and not yet answered. */
  survey: z.object({ kind: z.enum(['csat', 'nps']), askedAt: z.number(), reason: z.string(), stretchStartedAt: z.number() }).optional(),
  /** Start of the last stretch with people that got a survey: never two for one stretch. */
  surveyedStretch: z.number().optional(),
  /** The language the customer named when asking for another one ("in het Frans?"), while the language menu is offered. */
  languageAsked: z.string().optional(),
  /** The language the customer picked from a language menu: kept for the contact, across conversations. */
  chosenLanguage: z.string().optional(),
  /** The bot apologised for answering late; the rest of that backlog is taken in without more replies. */
  lateApologized: z.boolean().optional(),
});
export type DialogState = z.infer<typeof dialogStateSchema>;

export function freshState(nowMs: number): DialogState {
  return {
    v: 1,
    mode: 'bot',
    stretchStartedAt: nowMs,
    lastActivityAt: nowMs,
    turn: 0,
    menusOffered: {},
    collected: {},
    fallbacks: 0,
    sentiments: [],
    awaySentInStretch: false,
    contactTagEscalated: false,
    recentMentionIds: [],
  };
}

/** A new stretch (after a return from agents): keeps what was collected, forgets the turn-by-turn counters. */
export function newStretch(state: DialogState, nowMs: number): DialogState {
  const { offer: _o, question: _q, pendingEscalation: _p, takingMessage: _t, ...rest } = state;
  return {
    ...rest,
    mode: 'bot',
    stretchStartedAt: nowMs,
    lastActivityAt: nowMs,
    fallbacks: 0,
    sentiments: [],
    awaySentInStretch: false,
  };
}
