import { z } from 'zod';
import { idSchema } from './primitives.js';

export const mentionAssigneeSchema = z.looseObject({
  display_name: z.string().optional(),
  id: idSchema.optional(),
  type: z.string().optional(),
});
export type MentionAssignee = z.output<typeof mentionAssigneeSchema>;
