import { z } from 'zod';
import { idSchema, nullableIdSchema } from './primitives.js';

export const userStatusSchema = z.enum(['Available', 'Unavailable', 'Busy']);
export type UserStatus = z.output<typeof userStatusSchema>;

export const userRoleSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
  topics: z.array(z.unknown()).optional(),
  permissions: z.array(z.unknown()).optional(),
});
export type UserRole = z.output<typeof userRoleSchema>;

export const userSchema = z.looseObject({
  id: idSchema,
  name: z.string().optional(),
  email: z.string().optional(),
  // The brief calls it "id of a user role"; the conventions embed the role object: accept both.
  account_role: z.union([userRoleSchema, idSchema]).nullable().optional(),
  business_hours_schedule_id: nullableIdSchema.optional(),
  status: z.string().optional(),
  businesshours_is_active: z.boolean().optional(),
  avatar: z.unknown().optional(),
});
export type User = z.output<typeof userSchema>;

/** The only keys a user update may carry (brief: User POST). */
export const userUpdatesSchema = z.strictObject({
  business_hours_schedule_id: idSchema.optional(),
  account_role: idSchema.optional(),
});
export type UserUpdates = z.input<typeof userUpdatesSchema>;
