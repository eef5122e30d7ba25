import type { BridgeEngage } from '../bridge-engage.js';
import type { ProbeResult } from '../guess-report.js';

/**
 * What the poller relies on `GET inbox/mentions` to honour, though the description does not state it (issue 26):
 * the window (`date_from`), the order (`sort=dateadd:asc`), the source filter (`filter=source:…`), the topic
 * (`topic_ids`) and the page size (`limit`). One function per guess, each one list call of a page or two, each
 * answering `{holds, detail}`; `doctor --live` reads the account with the same functions. A guess that cannot be
 * judged (an empty account) holds until seen otherwise.
 */
export type MentionListEngage = Pick<BridgeEngage, 'mentions'>;

interface Listed {
  readonly id: string;
  readonly topicId: string;
  readonly added: number | undefined;
  readonly source: string | undefined;
}

async function firstPage(engage: MentionListEngage, query: Parameters<BridgeEngage['mentions']['list']>[0]): Promise<Listed[]> {
  const page = await engage.mentions.list(query);
  return page.data.map((m) => ({
    id: String(m.id),
    topicId: String(m.topic_id),
    added: typeof m.date?.added === 'number' ? m.date.added : undefined,
    source: m.source?.service,
  }));
}

/** `date_from` in the future lists nothing (or only mentions dated from then on). */
export async function probeWindow(engage: MentionListEngage, o: { nowMs: number; topicIds: readonly string[] }): Promise<ProbeResult> {
  const fromSeconds = Math.floor(o.nowMs / 1000) + 3600;
  const items = await firstPage(engage, { topicIds: o.topicIds, dateFrom: new Date(fromSeconds * 1000), sort: 'dateadd:asc', limit: 5 });
  const before = items.filter((m) => m.added !== undefined && m.added < fromSeconds);
  if (before.length === 0) return { holds: true, detail: 'a window starting in an hour listed nothing older' };
  return { holds: false, detail: `a window starting in an hour listed ${before.length} older mention(s): date_from is ignored` };
}

/** `sort=dateadd:asc` lists the oldest first. */
export async function probeOrder(engage: MentionListEngage, o: { topicIds: readonly string[] }): Promise<ProbeResult> {
  const items = (await firstPage(engage, { topicIds: o.topicIds, sort: 'dateadd:asc', limit: 20 })).filter((m) => m.added !== undefined);
  for (let i = 1; i < items.length; i++) {
    if ((items[i]?.added ?? 0) < (items[i - 1]?.added ?? 0)) {
      return { holds: false, detail: 'sort=dateadd:asc listed a newer mention before an older one: the order asked for is ignored' };
    }
  }
  return { holds: true, detail: items.length < 2 ? 'too few mentions to tell; taken as honoured' : 'oldest first, as asked' };
}

/** `filter=source:…` lists only those sources. */
export async function probeSourceFilter(
  engage: MentionListEngage,
  o: { topicIds: readonly string[]; filter: string | undefined; sources: readonly string[] },
): Promise<ProbeResult> {
  if (!o.filter) return { holds: true, detail: 'no source filter is sent' };
  const items = await firstPage(engage, { topicIds: o.topicIds, filter: o.filter, limit: 20 });
  const foreign = items.filter((m) => m.source !== undefined && !o.sources.includes(m.source));
  if (foreign.length === 0) return { holds: true, detail: 'only the served sources were listed' };
  return { holds: false, detail: `the source filter listed ${foreign.length} mention(s) of other sources: it is ignored` };
}

/** `topic_ids` of one topic lists only that topic. */
export async function probeTopicFilter(engage: MentionListEngage, o: { topicIds: readonly string[] }): Promise<ProbeResult> {
  const one = o.topicIds[0];
  if (one === undefined) return { holds: true, detail: 'no topic to read' };
  const items = await firstPage(engage, { topicIds: [one], limit: 20 });
  const other = items.filter((m) => m.topicId !== one);
  if (other.length === 0) return { holds: true, detail: `only topic ${one} was listed` };
  return { holds: false, detail: `topic_ids=${one} listed ${other.length} mention(s) of other topics: it is ignored` };
}

/** `limit` bounds the page. */
export async function probePageSize(engage: MentionListEngage, o: { topicIds: readonly string[] }): Promise<ProbeResult> {
  const items = await firstPage(engage, { topicIds: o.topicIds, limit: 1 });
  if (items.length <= 1) return { holds: true, detail: 'limit=1 listed at most one mention' };
  return { holds: false, detail: `limit=1 listed ${items.length} mentions: the page size is the service's own` };
}

export const MENTION_LIST_PROBES = {
  'mentions-window': probeWindow,
  'mentions-order': probeOrder,
  'mentions-filter': probeSourceFilter,
  'mentions-topics': probeTopicFilter,
  'mentions-limit': probePageSize,
} as const;

export type MentionListProbeName = keyof typeof MENTION_LIST_PROBES;

/** Every probe of the mentions list, one after the other; a probe that fails to answer is left out (not judged). */
export async function probeMentionList(
  engage: MentionListEngage,
  o: { nowMs: number; topicIds: readonly string[]; filter: string | undefined; sources: readonly string[] },
): Promise<Partial<Record<MentionListProbeName, ProbeResult>>> {
  const found: Partial<Record<MentionListProbeName, ProbeResult>> = {};
  for (const [name, probe] of Object.entries(MENTION_LIST_PROBES) as Array<
    [MentionListProbeName, (e: MentionListEngage, x: typeof o) => Promise<ProbeResult>]
  >) {
    try {
      found[name] = await probe(engage, o);
    } catch {
      // Not judged: the poll's own reads meet the same fault and report it.
    }
  }
  return found;
}
