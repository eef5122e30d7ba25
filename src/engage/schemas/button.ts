import { z } from 'zod';
import { idSchema } from './primitives.js';

/** A quick reply: `{ id, title, payload? }`. */
export const buttonSchema = z.looseObject({
  id: idSchema,
  title: z.string(),
  payload: z.string().nullable().optional(),
});
export type Button = z.output<typeof buttonSchema>;
