import { pagedListSchema, type PagedList } from '../schemas/paged-list.js';
import { profileGroupInputSchema, profileGroupSchema, type ProfileGroup, type ProfileGroupInput } from '../schemas/profile-group.js';
import { iteratePages } from '../transport/iterate-pages.js';
import type { PageQuery } from './business-hours.js';
import { checkInput, checkLimit } from './client-rules.js';
import { readOp, writeOp, type ResourceContext } from './resource-context.js';

const LIST = '/{account_id}/settings/profilegroups';

const pageSchema = pagedListSchema(profileGroupSchema);

export function profileGroupsResource(ctx: ResourceContext) {
  return {
    list: async (query: PageQuery = {}): Promise<PagedList<ProfileGroup>> => ctx.executor.json(listOp(query), pageSchema),
    listPages: (query: PageQuery = {}): AsyncGenerator<PagedList<ProfileGroup>, void, undefined> =>
      iteratePages(ctx.executor, () => listOp(query), pageSchema, ctx.maxPages),
    /** `color` must look like `#1f77b4`. */
    create: async (input: ProfileGroupInput): Promise<ProfileGroup> => {
      const site = { method: 'POST', template: LIST };
      const group = checkInput(site, profileGroupInputSchema, input, 'profile_group');
      return ctx.executor.json(writeOp('POST', LIST, false, {}, { profile_group: group }), profileGroupSchema);
    },
  };
}

function listOp(query: PageQuery) {
  const limit = checkLimit({ method: 'GET', template: LIST }, query.limit, 200);
  return readOp(LIST, {}, { limit, page_token: query.pageToken });
}
