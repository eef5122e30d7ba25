import { z } from 'zod';
import { clickedButtonSchema } from './button.js';
import { mentionActionSchema } from './mention-action.js';
import { mentionAuthorSchema, mentionMessageSchema, mentionSourceSchema } from './mention.js';
import { idSchema, resourceDateSchema } from './primitives.js';

/**
 * A mention as a webhook push brings it, checked for what the bridge reads of it (`classifyMention`): its ids,
 * source, author, message, date, the buttons the customer clicked, people's actions on it, its permalink and
 * language, and (read tolerantly where it is used) what it answers. The rest of a mention (its topic, tags,
 * assignment, timestamps, attachments, links...) is read by nothing and dropped, not checked: an odd value there
 * never costs a customer's message, and the full check (`mentionSchema`) of two dozen fields cost more than
 * recording the push. A push that claims a person's act is read again from the service in full anyway.
 */
export const pushedMentionSchema = z.object({
  id: idSchema,
  topic_id: idSchema,
  source: mentionSourceSchema.optional(),
  author: mentionAuthorSchema.optional(),
  message: mentionMessageSchema.optional(),
  date: resourceDateSchema.optional(),
  clicked_buttons: z.array(clickedButtonSchema).optional(),
  actions: z.array(mentionActionSchema).optional(),
  permalink: z.string().optional(),
  language: z.unknown().optional(),
  in_reply_to: z.unknown().optional(),
});
