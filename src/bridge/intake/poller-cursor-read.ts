import { AuthError } from '../../engage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import type { IngestResult } from './ingest.js';
import { advanceCursor, nextWindow, sameCursor, withDeepScan, type PollCursor, type PollWindowOptions } from './poll-window.js';
import { readDeepScan } from './poller-deep-scan.js';
import { pollNewestFirst, type ListMode } from './poller-list-mode.js';
import type { PollPageReader } from './poller-pages.js';
import type { Mention } from '../../engage/index.js';

/** Where the joint read of every topic keeps its cursor (a service topic id is never `*`). */
export const JOINED_CURSOR = '*';

/** What a read from a cursor uses of the poller. */
export interface CursorReadDeps {
  readonly ctx: BridgeContext;
  readonly reader: PollPageReader;
  /** How the list is read, from the start-up probe (`poller-list-mode.ts`). */
  readonly mode: ListMode;
  readonly window: PollWindowOptions;
  readonly pageLimit: number;
  /** `known`: the page's mentions its read found recorded already (`MentionPage.known`). */
  readonly ingest: (mentions: readonly Mention[], known?: ReadonlySet<Mention>) => Promise<IngestResult>;
  /** Told each page's newest date a read of these topics (`*`: joint) recorded; `throughEnd` at its end. */
  readonly onRead?: (topicIds: readonly string[], newestAddedAt: number, throughEnd?: boolean) => void;
}

/**
 * A read from the cursor kept under `cursorKey` through every page and, at the same time, the next pages of the
 * deep re-scan when one is due or under way. Both keep their progress page by page in the one cursor, so a failed
 * page or a restart resumes there. Only the read from the cursor fails the poll: a failed re-scan is logged and
 * goes on at the next poll. A list read newest first (the probe found the order not honoured) stops at the cursor.
 */
export async function readFromCursor(
  d: CursorReadDeps,
  cursorKey: string,
  topicIds: readonly string[],
  start: PollCursor | undefined,
  /** `start` is what the store holds under `cursorKey` (false: made up from the topics' own cursors). */
  startStored = true,
): Promise<number> {
  const { ctx, window: o } = d;
  const window = nextWindow(start, ctx.now(), o);
  if (d.mode.newestFirst) {
    const skipInvalid = (i: Parameters<PollPageReader['skipInvalid']>[1]) => d.reader.skipInvalid(cursorKey, i);
    const p = { reader: d.reader, topicIds, fromSeconds: window.fromSeconds, pageLimit: d.pageLimit, skipInvalid };
    const read = await pollNewestFirst(ctx, { ...p, sort: d.mode.newestFirstSort, ingest: d.ingest });
    const moved = advanceCursor(start, read.newest, ctx.now(), window);
    if (!(startStored && start && sameCursor(start, moved))) await ctx.store.setCursor(cursorKey, moved);
    if (read.newest !== undefined) d.onRead?.(cursorKey === JOINED_CURSOR ? [...topicIds, JOINED_CURSOR] : topicIds, read.newest, true);
    return read.recorded;
  }
  // What both reads have learnt so far: every save writes the two together.
  let cursor: PollCursor | undefined = start && (withDeepScan(start, ctx.now(), o) ?? start);
  // What the store holds, while no save is under way: a save of the same cursor writes nothing. Most pages of a
  // poll are its overlap read again, which moves nothing (issue 28: 243 of a bench run's 260 saves wrote the cursor
  // the save before had written).
  let stored = startStored ? start : undefined;
  let saving = 0;
  const save = async (): Promise<void> => {
    const c = cursor;
    if (!c || (saving === 0 && stored !== undefined && sameCursor(stored, c))) return;
    saving++;
    try {
      await ctx.store.setCursor(cursorKey, c);
      if (saving === 1) stored = c;
    } catch (err) {
      stored = undefined; // what the store holds is not known: the next save writes
      throw err;
    } finally {
      saving--;
    }
  };
  if (cursor?.deepScan && cursor.deepScan !== start?.deepScan) await save(); // a restart goes on with this re-scan
  const cell = {
    get: () => cursor,
    set: (c: PollCursor) => {
      cursor = c;
    },
    save,
  };
  const deep = readDeepScan(topicIds, cell, { scope: cursorKey, reader: d.reader, ingest: d.ingest, pageLimit: d.pageLimit });
  deep.catch(() => undefined); // awaited below: never an unhandled rejection while the read from the cursor runs
  let recorded = 0;
  let newest: number | undefined;
  try {
    const query = { topicIds, dateFrom: new Date(window.fromSeconds * 1000), sort: 'dateadd:asc' as const, limit: d.pageLimit };
    const readKeys = cursorKey === JOINED_CURSOR ? [...topicIds, JOINED_CURSOR] : topicIds;
    // The next page is asked for while this one is recorded: after an outage this read has many pages to catch up.
    for await (const page of d.reader.pages(query, { prefetch: true })) {
      d.reader.skipInvalid(cursorKey, page.invalid);
      const r = await d.ingest(page.data, page.known);
      recorded += r.recorded;
      if (r.newestAddedAt !== undefined) {
        newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
        // After they are recorded: a contact woken by the poll's progress finds every mention the page brought.
        d.onRead?.(readKeys, r.newestAddedAt);
      }
      // Progress is kept page by page (ascending by date): a failed page or a restart resumes here, not from the start.
      if (newest !== undefined) {
        cursor = advanceCursor(cursor, newest, ctx.now(), window);
        await save();
      }
    }
    cursor = advanceCursor(cursor, newest, ctx.now(), window);
    await save();
    if (newest !== undefined) d.onRead?.(readKeys, newest, true);
  } finally {
    recorded += await deep.catch((err: unknown) => {
      if (err instanceof AuthError) throw err;
      ctx.log.warn(
        { cursor: cursorKey, err: (err as Error)?.message },
        'the deep re-scan failed; the next poll goes on from where it stopped',
      );
      return 0;
    });
  }
  if (newest !== undefined) ctx.health.newestMentionAt = Math.max(ctx.health.newestMentionAt ?? 0, newest * 1000);
  return recorded;
}
