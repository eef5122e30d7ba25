import { z } from 'zod';
import { idSchema } from './primitives.js';
import { publisherMentionSchema } from './publisher-mention.js';

export const publisherActionTypeSchema = z.enum([
  'post',
  'reply',
  'privatemessage',
  'comment',
  'like',
  'favorite',
  'retweet',
  'reblog',
  'submit',
]);
export type PublisherActionType = z.output<typeof publisherActionTypeSchema>;

/** One message created by `publisher/add`. */
export const messageItemSchema = z.looseObject({
  id: idSchema,
  service: z.string().optional(),
  service_id: idSchema.optional(),
  status: z.string().optional(),
});
export type MessageItem = z.output<typeof messageItemSchema>;

/**
 * The publisher mention in the answer of POST `publisher/add`. Its `in_reply_to` echoes the customer's mention in
 * full; nothing reads more of it than which mention it is, so only that is checked, and only that is kept: the reply
 * is out whatever odd field that echo carries, and carrying its two dozen other fields over one by one (a loose
 * object's unknown keys each go through a check of their own) cost more than the rest of the answer's check.
 */
export const addedPublisherMentionSchema = publisherMentionSchema.extend({
  in_reply_to: z.object({ id: idSchema, topic_id: idSchema.optional() }).nullable().optional(),
});

/** The answer of POST `publisher/add`. */
export const publisherAddResultSchema = z.looseObject({
  messages: z.array(messageItemSchema),
  publisher_mention: addedPublisherMentionSchema.nullable().optional(),
});
export type PublisherAddResult = z.output<typeof publisherAddResultSchema>;

export const publisherServiceSchema = z.looseObject({
  type: z.string(),
  service_id: idSchema,
  name: z.string().nullable().optional(),
});
export type PublisherService = z.output<typeof publisherServiceSchema>;

/** The answer of GET `publisher/add`: profiles for new posts, services for replies. */
export const publisherServicesSchema = z.looseObject({
  profiles: z
    .array(z.looseObject({ type: z.string().optional(), service_id: idSchema.optional() }))
    .optional()
    .default([]),
  services: z.array(publisherServiceSchema).optional().default([]),
});
export type PublisherServices = z.output<typeof publisherServicesSchema>;
