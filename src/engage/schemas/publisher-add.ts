import { z } from 'zod';
import { idSchema } from './primitives.js';

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
 * The publisher mention in the answer of POST `publisher/add`, read for what its readers use: which publisher mention
 * it is (`id`), the user who published it (`user_id`, handed on as given: the bridge checks it where it learns the
 * bot's user from it), and which mention it answers (`in_reply_to`: its id and topic). Its other fields (status,
 * tags, actions, services, the text, dates, and the two dozen fields of the customer's mention its `in_reply_to`
 * echoes) are read by nothing and dropped unchecked: the reply is out whatever odd value they carry, and checking
 * and carrying them cost more than the rest of the call's own work. `publisher.mentions` reads a publisher mention
 * whole (`publisherMentionSchema`).
 */
export const addedPublisherMentionSchema = z.object({
  id: idSchema,
  user_id: z.unknown().optional(),
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
