import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import type { User } from '../model.js';
import { assertKeys, isPlainObject } from '../params.js';
import { presentUser } from '../present-settings.js';
import { invalidParameter, notFound } from '../sim-error.js';

function find(ctx: ApiContext): User {
  const user = ctx.rt.state.users.get(ctx.path.id ?? '');
  if (!user) throw notFound('User not found');
  return user;
}

const idOf = (value: unknown, where: string): string => {
  const raw = isPlainObject(value) ? value['id'] : value;
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalidParameter(`${where} must be an id`);
  return String(raw);
};

const postUser = (ctx: ApiContext): unknown => {
  const user = find(ctx);
  const updates = ctx.params.jsonObject('updates', true) ?? {};
  assertKeys(updates, ['business_hours_schedule_id', 'account_role'], 'updates');
  const { state } = ctx.rt;
  let scheduleId = user.scheduleId;
  if ('business_hours_schedule_id' in updates) {
    const value = updates['business_hours_schedule_id'];
    scheduleId = value === null ? null : idOf(value, 'updates.business_hours_schedule_id');
    if (scheduleId !== null && !state.schedules.has(scheduleId)) throw invalidParameter(`Unknown business hours schedule '${scheduleId}'`);
  }
  let roleId = user.roleId;
  if ('account_role' in updates) {
    roleId = idOf(updates['account_role'], 'updates.account_role');
    if (!state.roles.has(roleId)) throw invalidParameter(`Unknown user role '${roleId}'`);
  }
  Object.assign(user, { scheduleId, roleId });
  return presentUser(ctx.rt, user);
};

export const userRoutes: Route[] = [
  {
    pattern: '/:account/settings/user/:id',
    ops: {
      GET: { scopes: READ, params: [], handler: (ctx) => presentUser(ctx.rt, find(ctx)) },
      POST: { scopes: WRITE, params: ['updates'], handler: postUser },
      DELETE: { scopes: WRITE, params: [], handler: (ctx) => ctx.rt.state.users.delete(find(ctx).id) },
    },
  },
];
