import type { Mention, MentionListQuery } from '../../engage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import { probeMentionList } from './mention-list-probes.js';
import type { PollPageReader } from './poller-pages.js';

/** Pages a newest-first read goes through at most per poll before it stops short of the cursor (and says so). */
export const NEWEST_FIRST_MAX_PAGES = 20;

/**
 * How the poller reads the mentions list, from what the start-up probe found (issue 26): the window and the order
 * it asks for (`date_from`, `dateadd:asc`, cursor kept page by page), or, when either is not honoured, newest first
 * and stopping at the cursor; the source filter, or none when it is not honoured.
 */
export interface ListMode {
  readonly newestFirst: boolean;
  /** `dateadd:desc` when the service honours the order asked for; otherwise its own default (newest first). */
  readonly newestFirstSort?: 'dateadd:desc';
  readonly sourceFilter: boolean;
}

export const TRUSTING: ListMode = { newestFirst: false, sourceFilter: true };

/** Probes the list once (a few calls) and records each finding where `status` and `doctor` read it. */
export async function probeListMode(
  ctx: BridgeContext,
  o: { topicIds: readonly string[]; filter: string | undefined; sources: readonly string[]; countCall: () => void },
): Promise<ListMode> {
  // Each probe is an inbox read like the poll's own, counted with them.
  const list: BridgeContext['engage']['mentions']['list'] = (q) => {
    o.countCall();
    return ctx.engage.mentions.list(q);
  };
  const found = await probeMentionList({ mentions: { ...ctx.engage.mentions, list } }, { nowMs: ctx.now(), ...o });
  for (const [name, result] of Object.entries(found)) ctx.health.guesses?.recordProbe(name, result);
  const windowHolds = found['mentions-window']?.holds !== false;
  const orderHolds = found['mentions-order']?.holds !== false;
  if (!windowHolds || !orderHolds) {
    ctx.health.guesses?.notHeld(
      windowHolds ? 'mentions-order' : 'mentions-window',
      'the mentions list does not honour the window or order the poll asks for: it reads newest first and stops at its cursor',
    );
  }
  if (found['mentions-filter']?.holds === false) {
    ctx.health.guesses?.notHeld('mentions-filter', 'the mentions list ignores the source filter: every source is read and sorted here');
  }
  return {
    newestFirst: !windowHolds || !orderHolds,
    ...(orderHolds ? { newestFirstSort: 'dateadd:desc' as const } : {}),
    sourceFilter: found['mentions-filter']?.holds !== false,
  };
}

/**
 * One read newest first, page after page, until a page reaches back past `fromSeconds` (the cursor's window) or
 * the page bound; the mentions are then handed over oldest first, so each contact's messages are recorded in the
 * order written. Returns what the pages listed.
 */
export async function readNewestFirst(
  reader: PollPageReader,
  query: { topicIds: readonly string[]; limit: number; sort?: 'dateadd:desc' },
  fromSeconds: number,
  onPage: (invalid: Parameters<PollPageReader['skipInvalid']>[1]) => void,
): Promise<{ mentions: Mention[]; complete: boolean }> {
  const pages: Mention[][] = [];
  const q: MentionListQuery = { topicIds: query.topicIds, limit: query.limit, ...(query.sort ? { sort: query.sort } : {}) };
  for await (const page of reader.pages(q)) {
    onPage(page.invalid);
    pages.push(page.data);
    const dates = page.data.map((m) => m.date?.added).filter((a): a is number => typeof a === 'number');
    if (dates.length > 0 && Math.min(...dates) < fromSeconds) return { mentions: oldestFirst(pages), complete: true };
    if (pages.length >= NEWEST_FIRST_MAX_PAGES) return { mentions: oldestFirst(pages), complete: false };
  }
  return { mentions: oldestFirst(pages), complete: true };
}

function oldestFirst(pages: readonly Mention[][]): Mention[] {
  return pages.flat().sort((a, b) => (a.date?.added ?? 0) - (b.date?.added ?? 0));
}

/** What a newest-first poll needs of the poller. */
export interface NewestFirstPoll {
  readonly reader: PollPageReader;
  readonly topicIds: readonly string[];
  readonly fromSeconds: number;
  readonly pageLimit: number;
  readonly sort?: 'dateadd:desc';
  readonly skipInvalid: (invalid: Parameters<PollPageReader['skipInvalid']>[1]) => void;
  readonly ingest: (mentions: Mention[]) => Promise<{ recorded: number; newestAddedAt?: number | undefined }>;
}

/** A poll newest first: the pages down to the cursor, recorded oldest first. */
export async function pollNewestFirst(ctx: BridgeContext, p: NewestFirstPoll): Promise<{ recorded: number; newest?: number }> {
  const read = await readNewestFirst(
    p.reader,
    { topicIds: p.topicIds, limit: p.pageLimit, ...(p.sort ? { sort: p.sort } : {}) },
    p.fromSeconds,
    p.skipInvalid,
  );
  if (!read.complete) {
    ctx.log.warn(
      { pages: NEWEST_FIRST_MAX_PAGES },
      'reading the mentions list newest first did not reach the cursor within its page bound: older ones are read by id later',
    );
  }
  const r = await p.ingest(read.mentions);
  return { recorded: r.recorded, ...(r.newestAddedAt !== undefined ? { newest: r.newestAddedAt } : {}) };
}
