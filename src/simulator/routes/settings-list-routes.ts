import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import { offsetPage } from '../paging.js';
import { assertKeys } from '../params.js';
import { profileGroupSchema } from '../seed-schema.js';
import { zodToInvalid } from './schedule-routes.js';

const groupInput = profileGroupSchema.omit({ id: true });

const createGroup = (ctx: ApiContext): unknown => {
  const input = ctx.params.jsonObject('profile_group', true) ?? {};
  assertKeys(input, ['name', 'color', 'profiles'], 'profile_group');
  const parsed = groupInput.safeParse(input);
  if (!parsed.success) throw zodToInvalid('profile_group', parsed.error);
  const group = { id: ctx.rt.state.newId('group'), ...parsed.data };
  ctx.rt.state.profileGroups.set(group.id, group);
  return group;
};

const listOf =
  <T>(items: (ctx: ApiContext) => T[]) =>
  (ctx: ApiContext): unknown =>
    offsetPage(ctx, items(ctx), ctx.params.int('limit', 0, 200, 20));

const PAGED = ['limit', 'page_token'];

export const settingsListRoutes: Route[] = [
  {
    pattern: '/:account/settings/profilegroups',
    ops: {
      GET: { scopes: READ, params: PAGED, handler: listOf((ctx) => [...ctx.rt.state.profileGroups.values()]) },
      POST: { scopes: WRITE, params: ['profile_group'], handler: createGroup },
    },
  },
  {
    pattern: '/:account/settings/topics',
    ops: { GET: { scopes: READ, params: PAGED, handler: listOf((ctx) => [...ctx.rt.state.topics.values()].map((t) => ({ ...t }))) } },
  },
  {
    pattern: '/:account/settings/tags',
    ops: {
      GET: {
        scopes: READ,
        params: PAGED,
        handler: listOf((ctx) => ctx.rt.state.tags.map((t) => (ctx.version >= 20180115 ? { ...t, status: 'active' } : { ...t }))),
      },
    },
  },
  {
    pattern: '/:account/settings/canned_responses',
    ops: {
      GET: {
        scopes: READ,
        params: PAGED,
        handler: listOf((ctx) =>
          [...ctx.rt.state.canned.values()].map((c) => ({
            id: c.id,
            name: c.name,
            type: c.type,
            message: c.message,
            data: { buttons: c.buttons.map((b) => ({ ...b })) },
            usage_count: c.usageCount,
          })),
        ),
      },
    },
  },
];
