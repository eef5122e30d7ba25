import { z } from 'zod';
import { idSchema, resourceDateSchema, serviceRefSchema, tagListSchema } from './primitives.js';
import { mentionActionSchema } from './mention-action.js';
import { mentionSchema } from './mention.js';

export const publisherStatusSchema = z.enum(['draft', 'awaitingapproval', '']);
export type PublisherStatus = z.output<typeof publisherStatusSchema>;

export const publisherMentionSchema = z.looseObject({
  id: idSchema,
  status: z.string().optional(),
  tags: tagListSchema.optional(),
  actions: z.array(mentionActionSchema).optional(),
  in_reply_to: mentionSchema.nullable().optional(),
  services: z.array(serviceRefSchema).optional(),
  message: z.unknown().optional(),
  date: resourceDateSchema.optional(),
});
export type PublisherMention = z.output<typeof publisherMentionSchema>;
