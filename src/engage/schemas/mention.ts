import { z } from 'zod';
import { idSchema, resourceDateSchema, tagListSchema } from './primitives.js';
import { buttonSchema, clickedButtonSchema } from './button.js';
import { mentionActionSchema } from './mention-action.js';
import { mentionAssigneeSchema } from './mention-assignee.js';
import { mentionAttachmentSchema } from './mention-attachment.js';
import { actionLinkSchema } from './action-link.js';
import { mentionTimestampsSchema } from './mention-timestamps.js';

export const mentionPrioritySchema = z.enum(['low', 'medium', 'high', 'critical']);
export type MentionPriority = z.output<typeof mentionPrioritySchema>;

export const mentionSourceSchema = z.looseObject({
  service: z.string().optional(),
  type: z.string().optional(),
  sender: z.unknown().optional(),
  profile: z.unknown().optional(),
  url: z.string().nullable().optional(),
  thread_id: idSchema.nullable().optional(),
});

export const mentionAuthorSchema = z.looseObject({
  id: idSchema.optional(),
  name: z.string().nullable().optional(),
  managed: z.boolean().optional(),
});

export const mentionMessageSchema = z.looseObject({
  type: z.string().optional(),
  content: z.string().nullable().optional(),
  sentiment: z.union([z.string(), z.number()]).nullable().optional(),
  entities: z.array(z.unknown()).optional(),
});

export const mentionAssignmentSchema = z.looseObject({
  user_ids: z.array(idSchema).optional(),
  team_ids: z.array(idSchema).optional(),
  comment: z.string().nullable().optional(),
});

/** An inbound message of the inbox. Only `id` and `topic_id` are required; video mentions omit text. */
export const mentionSchema = z.looseObject({
  id: idSchema,
  topic_id: idSchema,
  // Read by nothing; a number here (issue 26) must not drop the message.
  unique_id: z.unknown().optional(),
  topic: z.looseObject({ id: idSchema.optional(), name: z.string().optional() }).optional(),
  status: z.string().optional(),
  priority: z.string().nullable().optional(),
  tags: tagListSchema.optional(),
  source: mentionSourceSchema.optional(),
  author: mentionAuthorSchema.optional(),
  message: mentionMessageSchema.optional(),
  buttons: z.array(buttonSchema).optional(),
  clicked_buttons: z.array(clickedButtonSchema).optional(),
  date: resourceDateSchema.optional(),
  permalink: z.string().optional(),
  assignment: mentionAssignmentSchema.nullable().optional(),
  assignees: z.array(mentionAssigneeSchema).optional(),
  timestamps: mentionTimestampsSchema.optional(),
  todos: z.array(z.unknown()).optional(),
  part_of_cases: z.unknown().optional(),
  extra_fields: z.unknown().optional(),
  attachments: z.array(mentionAttachmentSchema).optional(),
  actions: z.array(mentionActionSchema).optional(),
  action_links: z.array(actionLinkSchema).optional(),
});
export type Mention = z.output<typeof mentionSchema>;
