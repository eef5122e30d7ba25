import { DELETE_ONLY, READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import { parseMentionFilter } from '../mention-filter.js';
import { updateMention } from '../mention-update.js';
import type { MentionRecord } from '../model.js';
import { assertKeys, readBoolean } from '../params.js';
import { presentMention } from '../present-mention.js';
import { notFound } from '../sim-error.js';
import { listMentions } from './mention-list.js';

function findMention(ctx: ApiContext): MentionRecord {
  const m = ctx.rt.state.mentions.get(ctx.path.id ?? '', ctx.path.topic_id ?? '');
  if (!m || String(m.topicId) !== ctx.path.topic_id) throw notFound('Mention not found');
  return m;
}

const wantsEntities = (ctx: ApiContext): boolean => {
  const v = ctx.params.str('entities');
  return v !== undefined && readBoolean(v, "Parameter 'entities'");
};

const getMention = (ctx: ApiContext): unknown =>
  presentMention(ctx.rt, findMention(ctx), { version: ctx.version, entities: wantsEntities(ctx) });

const postMention = (ctx: ApiContext): unknown => {
  const m = findMention(ctx);
  const updates = ctx.params.jsonObject('updates') ?? {};
  const options = ctx.params.jsonObject('options') ?? {};
  const listFilter = ctx.params.str('list_filter');
  const fits = listFilter ? parseMentionFilter(listFilter) : undefined;
  updateMention(m, ctx.rt.state, { updates, options, version: ctx.version, userId: ctx.userId, now: ctx.rt.now() });
  if (fits && !fits(m)) ctx.warnings.push('The updated mention no longer matches list_filter');
  return presentMention(ctx.rt, m, { version: ctx.version, entities: wantsEntities(ctx) });
};

const deleteMention = (ctx: ApiContext): unknown => {
  const m = findMention(ctx);
  const options = ctx.params.jsonObject('options') ?? {};
  assertKeys(options, ['delete_on_service', 'hide_on_service', 'block_author_on_service'], 'options');
  for (const [key, value] of Object.entries(options)) readBoolean(value, `options.${key}`);
  return ctx.rt.state.mentions.remove(m.id, m.topicId);
};

export const mentionRoutes: Route[] = [
  {
    pattern: '/:account/inbox/mention/:topic_id/:id',
    ops: {
      GET: { scopes: READ, params: ['entities'], handler: getMention },
      POST: { scopes: WRITE, params: ['updates', 'options', 'list_filter', 'entities'], handler: postMention },
      DELETE: { scopes: DELETE_ONLY, params: ['options'], handler: deleteMention },
    },
  },
  {
    pattern: '/:account/inbox/mentions',
    ops: {
      GET: {
        scopes: READ,
        params: ['topic_ids', 'date_from', 'date_to', 'sort', 'limit', 'page_token', 'filter', 'entities'],
        handler: listMentions,
      },
    },
  },
];
