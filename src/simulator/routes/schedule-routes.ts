import { z } from 'zod';
import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import type { Schedule } from '../model.js';
import { weekdayIn } from '../guesses.js';
import { offsetPage } from '../paging.js';
import { assertKeys } from '../params.js';
import { presentSchedule } from '../present-settings.js';
import { periodSchema, timezoneSchema } from '../seed-schema.js';
import { invalidParameter, notFound } from '../sim-error.js';

const fields = { name: z.string().min(1), timezone: timezoneSchema, periods: z.array(periodSchema) };
const createSchema = z.object(fields);

/** A zod failure as one 400 naming the path and the problem. */
export function zodToInvalid(where: string, error: z.ZodError): Error {
  const first = error.issues[0];
  const path = first && first.path.length > 0 ? `${where}.${first.path.map(String).join('.')}` : where;
  return invalidParameter(`${path}: ${first?.message ?? 'invalid'}`);
}

/** Periods as the client wrote them, in the account's weekday numbering (`weekday_numbering`), read back to 0 = Sunday. */
function periodsIn(ctx: ApiContext, input: Record<string, unknown>): Record<string, unknown> {
  const periods = input['periods'];
  if (!Array.isArray(periods)) return input;
  const numbering = ctx.rt.realism.weekday_numbering;
  const read = (p: unknown): unknown =>
    p && typeof p === 'object' && typeof (p as { dayofweek?: unknown }).dayofweek === 'number'
      ? { ...p, dayofweek: weekdayIn((p as { dayofweek: number }).dayofweek, numbering) }
      : p;
  return { ...input, periods: periods.map(read) };
}

function find(ctx: ApiContext): Schedule {
  const s = ctx.rt.state.schedules.get(ctx.path.id ?? '');
  if (!s) throw notFound('Business hours schedule not found');
  return s;
}

const create = (ctx: ApiContext): unknown => {
  const input = ctx.params.jsonObject('business_hours_schedule', true) ?? {};
  assertKeys(input, Object.keys(fields), 'business_hours_schedule');
  const parsed = createSchema.safeParse(periodsIn(ctx, input));
  if (!parsed.success) throw zodToInvalid('business_hours_schedule', parsed.error);
  const schedule: Schedule = { id: ctx.rt.state.newId('schedule'), ...parsed.data };
  ctx.rt.state.schedules.set(schedule.id, schedule);
  return presentSchedule(ctx.rt, schedule);
};

const update = (ctx: ApiContext): unknown => {
  const s = find(ctx);
  const updates = ctx.params.jsonObject('updates', true) ?? {};
  assertKeys(updates, Object.keys(fields), 'updates');
  const parsed = createSchema.partial().safeParse(periodsIn(ctx, updates));
  if (!parsed.success) throw zodToInvalid('updates', parsed.error);
  Object.assign(s, Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)));
  return presentSchedule(ctx.rt, s);
};

const remove = (ctx: ApiContext): unknown => {
  const s = find(ctx);
  for (const user of ctx.rt.state.users.values()) if (user.scheduleId === s.id) user.scheduleId = null;
  return ctx.rt.state.schedules.delete(s.id);
};

const list = (ctx: ApiContext): unknown => {
  const limit = ctx.params.int('limit', 0, 200, 20);
  const page = offsetPage(ctx, [...ctx.rt.state.schedules.values()], limit);
  return { ...page, data: page.data.map((s) => presentSchedule(ctx.rt, s)) };
};

export const scheduleRoutes: Route[] = [
  {
    pattern: '/:account/settings/businesshoursschedules',
    ops: {
      GET: { scopes: READ, params: ['limit', 'page_token'], handler: list },
      POST: { scopes: WRITE, params: ['business_hours_schedule'], handler: create },
    },
  },
  {
    pattern: '/:account/settings/businesshoursschedule/:id',
    ops: {
      GET: { scopes: READ, params: [], handler: (ctx) => presentSchedule(ctx.rt, find(ctx)) },
      POST: { scopes: WRITE, params: ['updates'], handler: update },
      DELETE: { scopes: WRITE, params: [], handler: remove },
    },
  },
];
