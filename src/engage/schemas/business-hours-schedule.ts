import { z } from 'zod';
import { idSchema } from './primitives.js';

const hhmm = z.string().regex(/^\d{4}$/, 'expected HHMM (4 digits)');

/**
 * `dayofweek` 0 (Sunday) .. 6 (Saturday) as the conventions show it; 7 is read too, since an account may count from
 * 1 (issue 26: the bridge reads which numbering it uses). `end` "2400" means midnight.
 */
export const businessHoursPeriodSchema = z.looseObject({
  dayofweek: z.coerce.number().int().min(0).max(7),
  start: hhmm,
  end: hhmm,
});
export type BusinessHoursPeriod = z.output<typeof businessHoursPeriodSchema>;

export const businessHoursUsersSchema = z.looseObject({
  total: z.number().optional(),
  available: z.number().optional(),
  busy: z.number().optional(),
  unavailable: z.number().optional(),
});

export const businessHoursScheduleSchema = z.looseObject({
  id: idSchema,
  name: z.string(),
  timezone: z.string(),
  periods: z.array(businessHoursPeriodSchema),
  is_active: z.boolean().optional(),
  users: businessHoursUsersSchema.nullable().optional(),
});
export type BusinessHoursSchedule = z.output<typeof businessHoursScheduleSchema>;

/** What a create sends: name, timezone and periods. */
export const businessHoursScheduleInputSchema = z.strictObject({
  name: z.string().min(1),
  timezone: z.string().min(1),
  periods: z.array(z.strictObject({ dayofweek: z.number().int().min(0).max(6), start: hhmm, end: hhmm })),
});
export type BusinessHoursScheduleInput = z.input<typeof businessHoursScheduleInputSchema>;

/** An update sends only the properties to change. */
export const businessHoursScheduleUpdatesSchema = businessHoursScheduleInputSchema.partial();
export type BusinessHoursScheduleUpdates = z.input<typeof businessHoursScheduleUpdatesSchema>;
