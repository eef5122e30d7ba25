import { z } from 'zod';
import { idSchema } from './primitives.js';

export const accountSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
  projects: z.array(z.unknown()).optional(),
});
export type Account = z.output<typeof accountSchema>;
