import { z } from 'zod';
import { idSchema } from './primitives.js';
import { buttonSchema } from './button.js';

export const cannedResponseSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
  // Known values are buttons/text/csat/nps; a new kind must not break parsing, so it stays a string.
  type: z.string().optional(),
  message: z.string().nullable().optional(),
  data: z
    .looseObject({ buttons: z.array(buttonSchema).optional() })
    .nullable()
    .optional(),
});
export type CannedResponse = z.output<typeof cannedResponseSchema>;
