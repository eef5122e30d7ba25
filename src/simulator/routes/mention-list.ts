import type { ApiContext } from '../api-types.js';
import { upperBoundByKey } from '../mention-index.js';
import { parseMentionFilter } from '../mention-filter.js';
import { withOddShape } from '../odd-item.js';
import { decodePageToken, encodePageToken, pageUrl, type PagedList } from '../paging.js';
import { readBoolean } from '../params.js';
import { presentMention } from '../present-mention.js';
import { publishDue } from '../publish.js';
import { invalidParameter } from '../sim-error.js';

const SORTS = ['dateadd:desc', 'dateadd:asc'];

/** `t` (the topic) breaks ties between topics that share ids; a token without it passes every topic at (a, n). */
function readCursor(token: string | undefined): { a: number; n: number; t?: number } | undefined {
  const cursor = decodePageToken(token);
  if (cursor === undefined) return undefined;
  const { a, n, t } = cursor;
  if (typeof a !== 'number' || typeof n !== 'number' || (t !== undefined && typeof t !== 'number'))
    throw invalidParameter("Parameter 'page_token' is not a valid page token");
  return t === undefined ? { a, n } : { a, n, t };
}

/**
 * `GET /inbox/mentions`: keyset paging on (date.added, id, topic), so mentions that arrive while a client
 * pages never shift the pages it has not read yet.
 */
export function listMentions(ctx: ApiContext): PagedList<unknown> {
  const { params, rt } = ctx;
  publishDue(rt);
  const limit = params.int('limit', 0, 100, 20);
  const sort = params.str('sort') || 'dateadd:desc';
  if (!SORTS.includes(sort)) throw invalidParameter(`Parameter 'sort' must be one of ${SORTS.join(', ')}`);
  const topicIds = params.idList('topic_ids') ?? [...rt.state.topics.keys()];
  for (const id of topicIds) if (!rt.state.topics.has(id)) throw invalidParameter(`Unknown topic '${id}' in topic_ids`);
  const from = params.date('date_from') ?? 0;
  const to = params.date('date_to') ?? Number.MAX_SAFE_INTEGER;
  const filterText = params.str('filter');
  const matches = filterText ? parseMentionFilter(filterText) : undefined;
  const cursor = readCursor(params.str('page_token'));
  const entitiesParam = params.str('entities');
  const entities = entitiesParam !== undefined && readBoolean(entitiesParam, "Parameter 'entities'");

  const nowMs = rt.realMs();
  const now = rt.now();
  const { mentions } = rt.state;
  const inRange = mentions.range(topicIds, from, to);
  const allVisible = mentions.latestVisibleAtMs <= nowMs && mentions.latestListedFrom <= now;
  const items =
    allVisible && !matches ? inRange : inRange.filter((m) => m.visibleAtMs <= nowMs && m.listedFrom <= now && (!matches || matches(m)));
  let page: typeof items;
  let hasNext: boolean;
  if (sort === 'dateadd:asc') {
    const start = cursor ? upperBoundByKey(items, cursor.a, cursor.n, cursor.t) : 0;
    page = items.slice(start, start + limit);
    hasNext = start + limit < items.length;
  } else {
    const end = !cursor
      ? items.length
      : cursor.t === undefined
        ? upperBoundByKey(items, cursor.a, cursor.n - 1)
        : upperBoundByKey(items, cursor.a, cursor.n, cursor.t - 1);
    page = items.slice(Math.max(0, end - limit), end).reverse();
    hasNext = end - limit > 0;
  }
  const last = page[page.length - 1];
  return {
    count: items.length,
    data: page.map((m) => withOddShape(rt, m, presentMention(rt, m, { version: ctx.version, entities }))),
    paging: {
      next_url: hasNext && limit > 0 && last ? pageUrl(ctx, encodePageToken({ a: last.added, n: last.num, t: last.topicId })) : null,
      previous_url: null,
    },
  };
}
