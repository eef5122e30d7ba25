import { z } from 'zod';

const id = z.union([z.string().min(1), z.number().int().nonnegative()]).transform(String);
const hhmm = z.string().regex(/^([01]\d|2[0-3])[0-5]\d$|^2400$/, 'must be HHMM between 0000 and 2400');

export const buttonSchema = z.object({ id: id, title: z.string().min(1), payload: z.string().optional() });

export const periodSchema = z
  .object({ dayofweek: z.number().int().min(0).max(6), start: hhmm, end: hhmm })
  .refine((p) => p.start < p.end, { message: 'start must be before end', path: ['end'] });

export const timezoneSchema = z.string().refine(isTimeZone, { message: 'is not a known IANA time zone' });

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const scheduleSchema = z.object({
  id: id,
  name: z.string().min(1),
  timezone: timezoneSchema,
  periods: z.array(periodSchema),
});

export const profileGroupSchema = z.object({
  id: id,
  name: z.string().min(1),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hexadecimal colour like #1f77b4'),
  profiles: z.array(z.object({ type: z.string().min(1), service_id: id })),
});

const rateLimitSchema = z.object({ limit: z.number().int().positive(), window_seconds: z.number().int().positive() });

export const scopeSchema = z.string().min(1);

export const seedSchema = z
  .object({
    account: z.object({ id: id, name: z.string().min(1) }),
    application: z.object({ id: z.string().min(1), allow_listed: z.boolean() }).default({ id: 'bridge-app', allow_listed: true }),
    topics: z.array(z.object({ id: z.number().int().positive(), name: z.string().min(1) })).min(1),
    profiles: z.array(z.object({ type: z.string().min(1), service_id: id, name: z.string().min(1) })),
    roles: z.array(z.object({ id: id, name: z.string().min(1), topics: z.array(z.number().int()), permissions: z.array(z.string()) })),
    users: z.array(
      z.object({
        id: id,
        name: z.string().min(1),
        email: z.string().min(3),
        account_role: id,
        business_hours_schedule_id: id.nullable().default(null),
        status: z.enum(['Available', 'Unavailable', 'Busy']),
        avatar: z.string().default(''),
      }),
    ),
    tokens: z.array(z.object({ token: z.string().min(1), user_id: id, scopes: z.array(scopeSchema) })),
    canned_responses: z.array(
      z.object({
        id: id,
        name: z.string().min(1),
        type: z.enum(['text', 'buttons', 'csat', 'nps']),
        message: z.string(),
        data: z.object({ buttons: z.array(buttonSchema) }).default({ buttons: [] }),
      }),
    ),
    business_hours_schedules: z.array(scheduleSchema),
    profile_groups: z.array(profileGroupSchema),
    tags: z.array(z.object({ id: id, name: z.string().min(1) })).default([]),
    rate_limit: rateLimitSchema.default({ limit: 1_000_000, window_seconds: 60 }),
    user_rate_limits: z.record(z.string(), rateLimitSchema).default({}),
  })
  .superRefine((seed, ctx) => {
    const users = new Set(seed.users.map((u) => u.id));
    const roles = new Set(seed.roles.map((r) => r.id));
    const schedules = new Set(seed.business_hours_schedules.map((s) => s.id));
    seed.tokens.forEach((t, i) => {
      if (!users.has(t.user_id)) ctx.addIssue({ code: 'custom', path: ['tokens', i, 'user_id'], message: `unknown user '${t.user_id}'` });
    });
    seed.users.forEach((u, i) => {
      if (!roles.has(u.account_role))
        ctx.addIssue({ code: 'custom', path: ['users', i, 'account_role'], message: `unknown role '${u.account_role}'` });
      const s = u.business_hours_schedule_id;
      if (s !== null && !schedules.has(s))
        ctx.addIssue({ code: 'custom', path: ['users', i, 'business_hours_schedule_id'], message: `unknown schedule '${s}'` });
    });
    seed.canned_responses.forEach((c, i) => {
      if (c.type === 'buttons' && c.data.buttons.length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['canned_responses', i, 'data', 'buttons'],
          message: 'a buttons canned response needs at least one button',
        });
      }
    });
  });

/** The seed as written in a file (before defaults are applied). */
export type SeedInput = z.input<typeof seedSchema>;
/** The validated seed with every default filled in. */
export type Seed = z.output<typeof seedSchema>;
export type Button = z.output<typeof buttonSchema>;
export type Period = z.output<typeof periodSchema>;
