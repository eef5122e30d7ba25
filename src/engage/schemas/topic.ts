import { z } from 'zod';
import { idSchema } from './primitives.js';

export const topicSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
});
export type Topic = z.output<typeof topicSchema>;
