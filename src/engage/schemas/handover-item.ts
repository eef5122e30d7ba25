import { z } from 'zod';
import { nullableIdSchema, resourceDateSchema } from './primitives.js';

export const handoverOwnerSchema = z.enum(['application', 'agents']);
export type HandoverOwner = z.output<typeof handoverOwnerSchema>;

/** The brief shows only that the item names the owner; the rest follows the conventions file. */
export const handoverItemSchema = z.looseObject({
  service: z.string().optional(),
  service_id: nullableIdSchema.optional(),
  owner: handoverOwnerSchema,
  application_id: nullableIdSchema.optional(),
  date: resourceDateSchema.nullable().optional(),
});
export type HandoverItem = z.output<typeof handoverItemSchema>;
