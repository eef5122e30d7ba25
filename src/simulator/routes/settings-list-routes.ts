import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import { cannedTypeCase } from '../guesses.js';
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
    ops: {
      GET: {
        scopes: READ,
        params: PAGED,
        // Guess `topics_page_size`: the service pages topics its own way, whatever `limit` says.
        handler: (ctx) => {
          const size = ctx.rt.realism.topics_page_size;
          const topics = [...ctx.rt.state.topics.values()].map((t) => ({ ...t }));
          return offsetPage(ctx, topics, size > 0 ? size : ctx.params.int('limit', 0, 200, 20));
        },
      },
    },
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
            type: cannedTypeCase(c.type, ctx.rt.realism.canned_type_case),
            message: c.message,
            data: { buttons: c.buttons.map((b) => ({ ...b })) },
            usage_count: c.usageCount,
          })),
        ),
      },
    },
  },
];
