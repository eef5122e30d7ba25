import { z } from 'zod';
import { idSchema, resourceDateSchema } from './primitives.js';
import { mentionActionSchema } from './mention-action.js';
import { mentionAuthorSchema, mentionSourceSchema } from './mention.js';

/**
 * A mention the caller has already recorded, read again (a poll's overlap, the safety poll beside webhooks): only
 * what places it and what may be new on it is checked (its ids, date, source, author, and the actions a person's
 * reply adds). Its text and the rest were checked when it was first read and are dropped, not passed on unchecked.
 */
export const knownMentionSchema = z.object({
  id: idSchema,
  topic_id: idSchema,
  source: mentionSourceSchema.optional(),
  author: mentionAuthorSchema.optional(),
  date: resourceDateSchema.optional(),
  actions: z.array(mentionActionSchema).optional(),
  // Read tolerantly where it is used (the description does not show it on inbox mentions).
  in_reply_to: z.unknown().optional(),
});
