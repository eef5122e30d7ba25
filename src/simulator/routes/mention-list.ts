import type { ApiContext } from '../api-types.js';
import { upperBoundByKey } from '../mention-index.js';
import { parseMentionFilter } from '../mention-filter.js';
import type { MentionRecord } from '../model.js';
import { withOddShape } from '../odd-item.js';
import { decodePageToken, encodePageToken, pageUrl, type PagedList } from '../paging.js';
import { Params, readBoolean } from '../params.js';
import { presentMention } from '../present-mention.js';
import { publishDue } from '../publish.js';
import { invalidParameter } from '../sim-error.js';

const SORTS = ['dateadd:desc', 'dateadd:asc'];

interface Cursor {
  a: number;
  n: number;
  /** The topic: breaks ties between topics that share ids; a token without it passes every topic at (a, n). */
  t?: number;
  /** 1: the page before the key (previous_url); absent: the page after it (next_url). */
  p?: 1;
}

function readCursor(token: string | undefined): Cursor | undefined {
  const cursor = decodePageToken(token);
  if (cursor === undefined) return undefined;
  const { a, n, t, p } = cursor;
  if (typeof a !== 'number' || typeof n !== 'number' || (t !== undefined && typeof t !== 'number') || (p !== undefined && p !== 1)) {
    throw invalidParameter("Parameter 'page_token' is not a valid page token");
  }
  return { a, n, ...(t !== undefined ? { t } : {}), ...(p === 1 ? { p } : {}) };
}

type Key = { a: number; n: number; t: number };
const keyOf = (m: MentionRecord): Key => ({ a: m.added, n: m.num, t: m.topicId });

/**
 * The slice [start, end) of `items` (ascending by date.added, id) a request asks for. Forward tokens read on from
 * their key in the sort order; backward tokens (p: 1) read the `limit` items just before it in the sort order.
 */
function pageRange(items: MentionRecord[], sort: string, cursor: Cursor | undefined, limit: number): [number, number] {
  const asc = sort === 'dateadd:asc';
  if (!cursor) return asc ? [0, Math.min(limit, items.length)] : [Math.max(0, items.length - limit), items.length];
  const after = upperBoundByKey(items, cursor.a, cursor.n, cursor.t);
  const before =
    cursor.t === undefined ? upperBoundByKey(items, cursor.a, cursor.n - 1) : upperBoundByKey(items, cursor.a, cursor.n, cursor.t - 1);
  // Ascending forward and descending backward both read the items after the key; the other two those before it.
  if (asc === (cursor.p === undefined)) return [after, Math.min(items.length, after + limit)];
  return [Math.max(0, before - limit), before];
}

/**
 * `GET /inbox/mentions`: keyset paging on (date.added, id, topic), so mentions that arrive while a client
 * pages never shift the pages it has not read yet.
 */
export function listMentions(ctx: ApiContext): PagedList<unknown> {
  const { rt } = ctx;
  // Guess `mentions_ignore`: the service reads these parameters as if they were not sent.
  const ignored: readonly string[] = rt.realism.mentions_ignore;
  const params =
    ignored.length === 0
      ? ctx.params
      : new Params(Object.fromEntries(Object.entries(ctx.params.values).filter(([k]) => !ignored.includes(k))));
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
  const [start, end] = pageRange(items, sort, cursor, limit);
  const asc = sort === 'dateadd:asc';
  const page = asc ? items.slice(start, end) : items.slice(start, end).reverse();
  // Keys that bound the items before `start` (items < key) and after `end` (items > key), page empty or not.
  const first = items[0];
  const lastItem = items[items.length - 1];
  const beforeStart = (): Key =>
    start < items.length ? keyOf(items[start]!) : { a: lastItem!.added, n: lastItem!.num, t: lastItem!.topicId + 1 };
  const afterEnd = (): Key => (end > 0 ? keyOf(items[end - 1]!) : { a: first!.added, n: first!.num, t: first!.topicId - 1 });
  const url = (key: Key, back: boolean) => pageUrl(ctx, encodePageToken(back ? { ...key, p: 1 } : key));
  const hasBefore = limit > 0 && start > 0;
  const hasAfter = limit > 0 && end < items.length;
  return {
    count: items.length,
    data: page.map((m) => withOddShape(rt, m, presentMention(rt, m, { version: ctx.version, entities }))),
    paging: {
      next_url: asc ? (hasAfter ? url(afterEnd(), false) : null) : hasBefore ? url(beforeStart(), false) : null,
      previous_url: asc ? (hasBefore ? url(beforeStart(), true) : null) : hasAfter ? url(afterEnd(), true) : null,
    },
  };
}
