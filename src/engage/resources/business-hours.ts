import { z } from 'zod';
import {
  businessHoursScheduleInputSchema,
  businessHoursScheduleSchema,
  businessHoursScheduleUpdatesSchema,
  type BusinessHoursSchedule,
  type BusinessHoursScheduleInput,
  type BusinessHoursScheduleUpdates,
} from '../schemas/business-hours-schedule.js';
import { pagedListSchema, type PagedList } from '../schemas/paged-list.js';
import { iteratePages } from '../transport/iterate-pages.js';
import { checkId, checkInput, checkLimit, refuse, type CallSite } from './client-rules.js';
import { readOp, writeOp, type ResourceContext } from './resource-context.js';

const LIST = '/{account_id}/settings/businesshoursschedules';
const ONE = '/{account_id}/settings/businesshoursschedule/{id}';

export interface PageQuery {
  limit?: number;
  pageToken?: string;
}

const pageSchema = pagedListSchema(businessHoursScheduleSchema);

export function businessHoursResource(ctx: ResourceContext) {
  const idOf = (method: string, id: string | number) => ({ id: checkId({ method, template: ONE }, 'id', id) });
  return {
    list: async (query: PageQuery = {}): Promise<PagedList<BusinessHoursSchedule>> => ctx.executor.json(listOp(query), pageSchema),
    listPages: (query: PageQuery = {}): AsyncGenerator<PagedList<BusinessHoursSchedule>, void, undefined> =>
      iteratePages(ctx.executor, () => listOp(query), pageSchema, ctx.maxPages),
    create: async (input: BusinessHoursScheduleInput): Promise<BusinessHoursSchedule> => {
      const site = { method: 'POST', template: LIST };
      const schedule = checkInput(site, businessHoursScheduleInputSchema, input, 'business_hours_schedule');
      checkPeriods(site, schedule.periods);
      return ctx.executor.json(writeOp('POST', LIST, false, {}, { business_hours_schedule: schedule }), businessHoursScheduleSchema);
    },
    get: async (id: string | number): Promise<BusinessHoursSchedule> =>
      ctx.executor.json(readOp(ONE, idOf('GET', id)), businessHoursScheduleSchema),
    update: async (id: string | number, updates: BusinessHoursScheduleUpdates): Promise<BusinessHoursSchedule> => {
      const site = { method: 'POST', template: ONE };
      const path = idOf('POST', id);
      const checked = checkInput(site, businessHoursScheduleUpdatesSchema, updates, 'updates');
      if (Object.keys(checked).length === 0) throw refuse(site, 'updates must name at least one property to change');
      if (checked.periods !== undefined) checkPeriods(site, checked.periods);
      return ctx.executor.json(writeOp('POST', ONE, true, path, { updates: checked }), businessHoursScheduleSchema);
    },
    delete: async (id: string | number): Promise<boolean> =>
      ctx.executor.json(writeOp('DELETE', ONE, false, idOf('DELETE', id)), z.boolean()),
  };
}

function listOp(query: PageQuery) {
  const limit = checkLimit({ method: 'GET', template: LIST }, query.limit, 200);
  return readOp(LIST, {}, { limit, page_token: query.pageToken });
}

/** HHMM within a day (`2400` = midnight as an end), and each period must end after it starts. */
function checkPeriods(site: CallSite, periods: ReadonlyArray<{ dayofweek: number; start: string; end: string }>): void {
  periods.forEach((period, index) => {
    const start = minutesOf(period.start);
    const end = minutesOf(period.end);
    if (start === null || start >= 24 * 60) throw refuse(site, `periods.${index}.start "${period.start}" is not a time HHMM`);
    if (end === null || end > 24 * 60) throw refuse(site, `periods.${index}.end "${period.end}" is not a time HHMM (2400 = midnight)`);
    if (end <= start) throw refuse(site, `periods.${index} ends (${period.end}) before it starts (${period.start})`);
  });
}

function minutesOf(hhmm: string): number | null {
  const hours = Number(hhmm.slice(0, 2));
  const minutes = Number(hhmm.slice(2, 4));
  if (!/^\d{4}$/.test(hhmm) || minutes >= 60) return null;
  return hours * 60 + minutes;
}
