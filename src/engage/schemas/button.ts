import { z } from 'zod';
import { idSchema } from './primitives.js';

/** A quick reply: `{ id, title, payload? }`. */
export const buttonSchema = z.looseObject({
  id: idSchema,
  title: z.string(),
  payload: z.string().nullable().optional(),
});
export type Button = z.output<typeof buttonSchema>;

/**
 * A quick reply the customer chose (`clicked_buttons`): the description does not promise its `id`, so the title
 * alone is enough (the bot matches a click by id, payload or title).
 */
export const clickedButtonSchema = z.looseObject({
  id: idSchema.optional(),
  title: z.string(),
  payload: z.string().nullable().optional(),
});
