import { z } from 'zod';
import { idSchema, serviceRefSchema } from './primitives.js';

export const PROFILE_GROUP_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

export const profileGroupSchema = z.looseObject({
  id: idSchema.optional(),
  name: z.string(),
  color: z.string().optional(),
  profiles: z.array(serviceRefSchema).optional(),
});
export type ProfileGroup = z.output<typeof profileGroupSchema>;

export const profileGroupInputSchema = z.strictObject({
  name: z.string().min(1),
  color: z.string().regex(PROFILE_GROUP_COLOR_PATTERN, 'expected a colour like #1f77b4'),
  profiles: z.array(z.strictObject({ type: z.string().min(1), service_id: z.string().min(1) })),
});
export type ProfileGroupInput = z.input<typeof profileGroupInputSchema>;
