import type { Mention } from '../../engage/index.js';
import type { BaselineTries } from './baseline-tries.js';
import type { BridgeContext } from '../bridge-context.js';
import type { IngestResult } from './ingest.js';
import { advanceCursor, nextWindow, type PollWindowOptions } from './poll-window.js';
import type { PollPageReader } from './poller-pages.js';
import { serviceNowMs } from '../service-time.js';

/** What a topic's baseline read uses of the poller. */
export interface BaselineReadDeps {
  readonly ctx: BridgeContext;
  readonly reader: PollPageReader;
  readonly baselines: BaselineTries;
  readonly window: PollWindowOptions;
  readonly pageLimit: number;
  /** Records mentions; those added before `historyBefore` (UNIX seconds) are history, never answered. */
  readonly ingest: (mentions: readonly Mention[], historyBefore?: number) => Promise<IngestResult>;
}

/**
 * The first read of a topic that has no cursor: what it shows is history (recorded, never answered), and its
 * newest date starts the topic's cursor, so whatever a customer writes after it is new.
 */
export async function readBaseline(d: BaselineReadDeps, topicId: string): Promise<number> {
  const { ctx, window: o } = d;
  let recorded = 0;
  // A baseline's reach and its history boundary are moments on the service's clock (ours until it answered once).
  const window = nextWindow(undefined, serviceNowMs(ctx) ?? ctx.now(), o);
  d.baselines.note(topicId, serviceNowMs(ctx), ctx.now());
  const placed = d.baselines.knows(topicId);
  const plan = d.baselines.plan(topicId, window, o.backfillSeconds + o.lookbackSeconds);
  let newest: number | undefined;
  const dateFrom = new Date(plan.fromSeconds * 1000);
  for await (const page of d.reader.pages({ topicIds: [topicId], dateFrom, sort: 'dateadd:asc', limit: d.pageLimit })) {
    d.baselines.note(topicId, serviceNowMs(ctx), ctx.now());
    // Planned before the service had ever answered: its first answer places the first try (`baseline-tries.ts`), so
    // the read starts again, reaching back to that try and answering who wrote since. Once: the try is placed now.
    if (!placed && d.baselines.knows(topicId)) return readBaseline(d, topicId);
    d.reader.skipInvalid(topicId, page.invalid);
    const r = await d.ingest(page.data, plan.historyBefore);
    recorded += r.recorded;
    if (r.newestAddedAt !== undefined) newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
  }
  // An answer with no page (nothing in the blind plan's reach) placed the first try as well: read again from there.
  d.baselines.note(topicId, serviceNowMs(ctx), ctx.now());
  if (!placed && d.baselines.knows(topicId)) return readBaseline(d, topicId);
  // A baseline keeps no progress page by page: one cut short is tried again whole (`baseline-tries.ts`).
  await ctx.store.setCursor(topicId, advanceCursor(undefined, newest, ctx.now(), window));
  d.baselines.done(topicId);
  if (newest !== undefined) ctx.health.newestMentionAt = Math.max(ctx.health.newestMentionAt ?? 0, newest * 1000);
  return recorded;
}
