import type { Mention } from '../../engage/index.js';
import type { IngestResult } from './ingest.js';
import { advanceDeepScan, type PollCursor } from './poll-window.js';
import type { PollPageReader } from './poller-pages.js';

/**
 * Pages of the deep re-scan a poll reads (beside its read from the cursor, at the same time): the re-scan goes on at
 * the next poll, so under heavy traffic its hundreds of pages never hold up what is new.
 */
export const DEEP_PAGES_PER_POLL = 3;

/** The cursor both of a poll's reads write: each save writes what the two have learnt so far. */
export interface CursorCell {
  get(): PollCursor | undefined;
  set(cursor: PollCursor): void;
  save(): Promise<void>;
}

/**
 * Up to DEEP_PAGES_PER_POLL pages of the deep re-scan under way (none: nothing to do), inside its window (`date_to`
 * bounds it, so it never chases what is new); more when those pages did not get past the second it began at (ties).
 * Progress is saved page by page; the re-scan ends when a read of it reaches its last page. Returns what it recorded.
 */
export async function readDeepScan(
  topicIds: readonly string[],
  cell: CursorCell,
  o: {
    scope: string;
    reader: PollPageReader;
    ingest: (mentions: Mention[], known?: ReadonlySet<Mention>) => Promise<IngestResult>;
    pageLimit: number;
  },
): Promise<number> {
  const scan = cell.get()?.deepScan;
  if (!scan) return 0;
  let recorded = 0;
  let newest: number | undefined;
  let pages = 0;
  let done = true;
  const advance = async (finished: boolean): Promise<void> => {
    const current = cell.get();
    if (current) cell.set(advanceDeepScan(current, newest, finished));
    await cell.save();
  };
  const query = {
    topicIds,
    dateFrom: new Date(scan.fromSeconds * 1000),
    dateTo: new Date(scan.toSeconds * 1000),
    sort: 'dateadd:asc' as const,
    limit: o.pageLimit,
  };
  for await (const page of o.reader.pages(query)) {
    o.reader.skipInvalid(o.scope, page.invalid);
    const r = await o.ingest(page.data, page.known);
    recorded += r.recorded;
    if (r.newestAddedAt !== undefined) newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
    await advance(false);
    if (++pages >= DEEP_PAGES_PER_POLL && newest !== undefined && newest > scan.fromSeconds) {
      done = false;
      break;
    }
  }
  await advance(done);
  return recorded;
}
