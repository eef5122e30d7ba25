import { z } from 'zod';
import { userSchema, userUpdatesSchema, type User, type UserUpdates } from '../schemas/user.js';
import { checkId, checkInput, refuse } from './client-rules.js';
import { readOp, writeOp, type ResourceContext } from './resource-context.js';

const ONE = '/{account_id}/settings/user/{id}';

export function usersResource(ctx: ResourceContext) {
  const idOf = (method: string, id: string | number) => ({ id: checkId({ method, template: ONE }, 'id', id) });
  return {
    get: async (id: string | number): Promise<User> => ctx.executor.json(readOp(ONE, idOf('GET', id)), userSchema),
    /** Only `business_hours_schedule_id` or `account_role` (the id of a role) can change. */
    update: async (id: string | number, updates: UserUpdates): Promise<User> => {
      const site = { method: 'POST', template: ONE };
      const path = idOf('POST', id);
      const checked = checkInput(site, userUpdatesSchema, updates, 'updates');
      if (Object.keys(checked).length === 0) {
        throw refuse(site, 'updates must carry business_hours_schedule_id or account_role');
      }
      return ctx.executor.json(writeOp('POST', ONE, true, path, { updates: checked }), userSchema);
    },
    delete: async (id: string | number): Promise<boolean> =>
      ctx.executor.json(writeOp('DELETE', ONE, false, idOf('DELETE', id)), z.boolean()),
  };
}
