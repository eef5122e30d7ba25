import { z } from 'zod';
import type { AuditEntry } from '../shared/audit-entry.js';
import { OWNERS } from '../shared/owner.js';

// One zod schema per record: the same definition checks every input at the edge and every record imported.

export const ownerSchema = z.enum(OWNERS);
export type { Owner } from '../shared/owner.js';

export const transcriptLineSchema = z.object({
  at: z.number(),
  from: z.enum(['customer', 'bot', 'agent', 'system']),
  text: z.string(),
  mentionId: z.string().optional(),
  /** The mention's topic: ids are unique only within a topic (lines written before it was kept lack it). */
  topicId: z.string().optional(),
});
export type TranscriptLine = z.infer<typeof transcriptLineSchema>;

export const conversationSchema = z.object({
  key: z.string().min(1),
  channel: z.string().min(1),
  serviceId: z.string().min(1),
  topicId: z.string().optional(),
  contactName: z.string().optional(),
  owner: ownerSchema,
  ownerConfirmedAt: z.number().optional(),
  ownerChangedAt: z.number().optional(),
  /** The bot's dialog state: opaque JSON that only the bot understands. */
  dialog: z.unknown().optional(),
  transcript: z.array(transcriptLineSchema),
  stretchStartedAt: z.number().optional(),
  lastInboundAt: z.number().optional(),
  lastBotReplyAt: z.number().optional(),
  /** The service's date of the latest human activity (its clock): for display, never compared with ours. */
  lastHumanActivityAt: z.number().optional(),
  /** When the bridge saw the latest human activity, on the bridge's own clock: the idle return counts from it. */
  humanSeenAt: z.number().optional(),
  /**
   * The service's date (its clock, UNIX seconds) on the answer to the bridge's own latest handover write: a hand-back
   * dated then is the bridge's own, not people's. Compared with the service's dates only.
   */
  ownHandoverAt: z.number().optional(),
  lastMentionId: z.string().optional(),
  lastMentionTopicId: z.string().optional(),
  updatedAt: z.number(),
});
export type ConversationRecord = z.infer<typeof conversationSchema>;

export const inboundMentionSchema = z.object({
  id: z.string().min(1),
  topicId: z.string(),
  /** The conversation key (`channel:serviceId`) the mention belongs to. */
  key: z.string().min(1),
  addedAt: z.number(),
  payload: z.unknown(),
});
export type InboundMention = z.infer<typeof inboundMentionSchema>;

/** What identifies a mention, `topicId/id`: ids are unique only within a topic (`src/storage/README.md`). */
export function mentionRef(topicId: string, id: string): string {
  return `${topicId}/${id}`;
}

/** The topic of an id seen before topic keys (schema v1), its topic unknown: seen in every topic (none is `*`). */
export const ANY_TOPIC = '*';

export const effectInputSchema = z.object({
  /** `${mentionId}:${step}`: the same inbound step always derives the same key. */
  key: z.string().min(1),
  kind: z.string().min(1),
  contactKey: z.string().min(1),
  payload: z.unknown(),
});
export type EffectInput = z.infer<typeof effectInputSchema>;

export const effectSchema = effectInputSchema.extend({
  seq: z.number().int(),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
  retryAt: z.number().optional(),
  lastError: z.string().optional(),
  result: z.unknown().optional(),
});
export type Effect = z.infer<typeof effectSchema>;

export const escalationStatusSchema = z.enum(['open', 'queued', 'taken', 'cancelled', 'returned', 'resolved']);
export type EscalationStatus = z.infer<typeof escalationStatusSchema>;

export const escalationInputSchema = z.object({
  contactKey: z.string().min(1),
  channel: z.string().min(1),
  serviceId: z.string().min(1),
  reason: z.string(),
  priority: z.string(),
  status: escalationStatusSchema.optional(),
  mentionId: z.string(),
  topicId: z.string(),
  permalink: z.string().optional(),
  summary: z.string(),
  notice: z.object({ channel: z.string(), ts: z.string() }).optional(),
  /** When the watchdog announced that nobody picked it up (bridge clock): kept, so a restart does not announce it again. */
  stuckAnnouncedAt: z.number().optional(),
});
export type EscalationInput = z.infer<typeof escalationInputSchema>;

export const escalationSchema = escalationInputSchema.extend({
  id: z.string().min(1),
  status: escalationStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Escalation = z.infer<typeof escalationSchema>;

export const escalationPatchSchema = escalationInputSchema.omit({ contactKey: true, channel: true, serviceId: true }).partial();
export type EscalationPatch = z.infer<typeof escalationPatchSchema>;

/** Checked against the shared `AuditEntry`, so the store's file and the project's word cannot drift apart. */
export const auditEntrySchema: z.ZodType<AuditEntry> = z.object({
  at: z.number(),
  actor: z.string().min(1),
  action: z.string().min(1),
  subject: z.string(),
  reason: z.string().optional(),
  result: z.string().optional(),
});
export type { AuditEntry } from '../shared/audit-entry.js';

export const cursorSchema = z.object({
  /** Opaque to the store: whatever the poller needs to resume (e.g. newest date seen and the ids at it). */
  value: z.unknown(),
  updatedAt: z.number(),
});
export type StoredCursor = z.infer<typeof cursorSchema>;

export const metaSchema = z.object({
  createdAt: z.number(),
  /** Set once the first poll has taken the existing backlog as a baseline instead of answering it. */
  baselineAt: z.number().optional(),
  values: z.record(z.string(), z.unknown()),
});
export type StoreMeta = z.infer<typeof metaSchema>;

/** The conversation key used everywhere: `whatsapp:32470000001`. */
export { conversationKey } from '../shared/contact-key.js';
