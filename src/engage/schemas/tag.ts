import { z } from 'zod';
import { idSchema } from './primitives.js';

export const tagSchema = z.looseObject({
  id: idSchema.optional(),
  name: z.string(),
  // Present from version 20180115.
  status: z.string().optional(),
});
export type Tag = z.output<typeof tagSchema>;
