import { z } from 'zod';
import { idSchema, resourceDateSchema } from './primitives.js';
import { mentionAssigneeSchema } from './mention-assignee.js';

export const mentionActionMetadataSchema = z.looseObject({
  status: z.string().optional(),
  priority: z.string().nullable().optional(),
  previous_priority: z.string().nullable().optional(),
  assignees: z.array(mentionAssigneeSchema).optional(),
});

/** `note` (text in `extra`), `reply` (an agent answered in the service's tool), and others. */
export const mentionActionSchema = z.looseObject({
  type: z.string(),
  extra: z.string().nullable().optional(),
  user_id: idSchema.nullable().optional(),
  date: resourceDateSchema.optional(),
  metadata: mentionActionMetadataSchema.nullable().optional(),
});
export type MentionAction = z.output<typeof mentionActionSchema>;
