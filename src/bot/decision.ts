// What the brain tells the bridge to do, as data (and a schema the tests hold every decision to).
import { z } from 'zod';
import { PRIORITIES } from './flow-schema.js';
import { dialogStateSchema } from './dialog-state.js';

const button = z.object({ id: z.string().min(1), title: z.string().min(1), payload: z.string().optional() });
const transcriptLine = z.object({ at: z.number(), from: z.enum(['customer', 'bot', 'agent']), text: z.string() });

export const contextPacketSchema = z.object({
  reason: z.string().min(1),
  /** The customer's words (or the event) that triggered the escalation. */
  trigger: z.string(),
  intent: z.string().optional(),
  collected: z.record(z.string(), z.string()),
  sentimentTrend: z.enum(['negative', 'worsening', 'improving', 'steady', 'unknown']),
  sentiments: z.array(z.enum(['positive', 'neutral', 'negative'])),
  summary: z.string().min(1),
  channel: z.string(),
  contactName: z.string().optional(),
  /** The conversation's language (a code such as `nl`), so people answer in it. */
  language: z.string().optional(),
  /** Start of the conversation's current stretch (epoch ms): where the transcript window begins. */
  stretchStartedAt: z.number(),
  transcript: z.array(transcriptLine),
  /** Lines of the stretch left out of `transcript` to keep it bounded (taken from the middle). */
  omittedLines: z.number().int().min(0),
});
export type ContextPacket = z.infer<typeof contextPacketSchema>;

export const actionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('reply'),
    text: z.string().min(1),
    /** Native quick replies (web, WhatsApp, Viber): publish with this canned response id; the buttons it carries. */
    quickReplies: z.object({ cannedResponseId: z.string().min(1), buttons: z.array(button).min(1) }).optional(),
    /** Publish with this canned response (a CSAT or NPS question) and no buttons of ours. */
    cannedResponseId: z.string().min(1).optional(),
    /** Not before this moment (epoch ms): a survey asked a while after the people are done. */
    sendAt: z.number().optional(),
  }),
  z.object({
    type: z.literal('survey-answer'),
    kind: z.enum(['csat', 'nps']),
    score: z.number().int().min(0).max(10),
    /** The escalation reason of the stretch it rates. */
    reason: z.string().min(1),
    channel: z.string(),
    /** Tags for the mention (and the contact when `tagContact`). */
    tags: z.array(z.string().min(1)),
    tagContact: z.boolean(),
  }),
  z.object({
    type: z.literal('escalate'),
    reason: z.string().min(1),
    priority: z.enum(PRIORITIES),
    tags: z.array(z.string()),
    /** Plain text for the note on the mention, bounded in bytes. */
    note: z.string().min(1),
    packet: contextPacketSchema,
  }),
  z.object({ type: z.literal('queue-escalation'), reason: z.string().min(1), releaseAt: z.number().optional() }),
  z.object({ type: z.literal('cancel-escalation'), reason: z.string().min(1) }),
  z.object({ type: z.literal('nothing'), why: z.string().min(1) }),
]);
export type Action = z.infer<typeof actionSchema>;
export type ReplyAction = Extract<Action, { type: 'reply' }>;
export type EscalateAction = Extract<Action, { type: 'escalate' }>;

export const decisionSchema = z.object({ actions: z.array(actionSchema).min(1), state: dialogStateSchema });
export type Decision = z.infer<typeof decisionSchema>;
