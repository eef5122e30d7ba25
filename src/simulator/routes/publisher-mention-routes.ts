import { DELETE_ONLY, READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import { applyTagEdit, readEditMode } from '../contact-update.js';
import { readAssignment, readNotes } from '../mention-update.js';
import type { PublisherMention } from '../model.js';
import { offsetPage } from '../paging.js';
import { assertKeys, readBoolean, readStringList } from '../params.js';
import { presentPublisherMention } from '../present-publisher-mention.js';
import { deliver, publishDue } from '../publish.js';
import { invalidParameter, notFound } from '../sim-error.js';

const STATUSES = ['posted', 'scheduled', 'draft', 'awaitingapproval'];

function find(ctx: ApiContext): PublisherMention {
  publishDue(ctx.rt);
  const pm = ctx.rt.state.publisherMentions.get(ctx.path.id ?? '');
  if (!pm) throw notFound('Publisher mention not found');
  return pm;
}

const getOne = (ctx: ApiContext): unknown => presentPublisherMention(ctx.rt, find(ctx), { version: ctx.version, withReply: true });

const postOne = (ctx: ApiContext): unknown => {
  const pm = find(ctx);
  const updates = ctx.params.jsonObject('updates', true) ?? {};
  const options = ctx.params.jsonObject('options') ?? {};
  assertKeys(updates, ['tags', 'actions', 'assignment', 'status'], 'updates');
  assertKeys(options, ['tags_edit_mode', 'sendMail'], 'options');
  if ('sendMail' in options) readBoolean(options['sendMail'], 'options.sendMail');
  const tagMode = readEditMode(options, 'tags_edit_mode', ['update', 'add', 'delete']);
  const now = ctx.rt.now();
  const tags = 'tags' in updates ? applyTagEdit(pm.tags, readStringList(updates['tags'], 'updates.tags'), tagMode) : pm.tags;
  const notes = 'actions' in updates ? readNotes(updates['actions'], ctx.userId, now) : [];
  const assignment = 'assignment' in updates ? readAssignment(updates['assignment'], ctx.rt.state) : pm.assignment;
  const status = updates['status'];
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) {
    throw invalidParameter(`updates.status must be one of ${STATUSES.join(', ')}`);
  }
  if (status !== undefined && pm.status === 'posted' && status !== 'posted')
    throw invalidParameter('A posted message cannot change status');
  Object.assign(pm, { tags, actions: [...pm.actions, ...notes], assignment });
  if (status === 'posted' && pm.status !== 'posted') deliver(ctx.rt, pm);
  else if (status !== undefined) pm.status = status as PublisherMention['status'];
  return presentPublisherMention(ctx.rt, pm, { version: ctx.version, withReply: true });
};

const deleteOne = (ctx: ApiContext): unknown => {
  const pm = find(ctx);
  const options = ctx.params.jsonObject('options') ?? {};
  assertKeys(options, ['comment', 'sendMail', 'reassignAuthor'], 'options');
  if ('comment' in options && typeof options['comment'] !== 'string') throw invalidParameter('options.comment must be a string');
  if ('sendMail' in options) readBoolean(options['sendMail'], 'options.sendMail');
  if ('reassignAuthor' in options) readBoolean(options['reassignAuthor'], 'options.reassignAuthor');
  return ctx.rt.state.publisherMentions.delete(pm.id);
};

const list = (ctx: ApiContext): unknown => {
  publishDue(ctx.rt);
  const limit = ctx.params.int('limit', 0, 100, 20);
  const status = ctx.params.str('status');
  if (status && !STATUSES.includes(status)) throw invalidParameter(`Parameter 'status' must be one of ${STATUSES.join(', ')}`);
  const from = ctx.params.date('date_from') ?? 0;
  const to = ctx.params.date('date_to') ?? Number.MAX_SAFE_INTEGER;
  const items = [...ctx.rt.state.publisherMentions.values()]
    .filter((pm) => (!status || pm.status === status) && pm.added >= from && pm.added <= to)
    .reverse();
  const page = offsetPage(ctx, items, limit);
  return { ...page, data: page.data.map((pm) => presentPublisherMention(ctx.rt, pm, { version: ctx.version, withReply: false })) };
};

export const publisherMentionRoutes: Route[] = [
  {
    pattern: '/:account/publisher/mention/:id',
    ops: {
      GET: { scopes: READ, params: [], handler: getOne },
      POST: { scopes: WRITE, params: ['updates', 'options'], handler: postOne },
      DELETE: { scopes: DELETE_ONLY, params: ['options'], handler: deleteOne },
    },
  },
  {
    pattern: '/:account/publisher/mentions',
    ops: { GET: { scopes: READ, params: ['date_from', 'date_to', 'status', 'limit', 'page_token'], handler: list } },
  },
];
