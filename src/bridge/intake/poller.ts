import { AuthError, ConnectionError, RateLimitError, ServerError, type Mention } from '../../engage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import { accessAccepted, tokenRefused } from '../ownership/token-health.js';
import { ingestMentions, type IngestResult } from './ingest.js';
import { parseCursor, type PollCursor, type PollWindowOptions } from './poll-window.js';
import { readBaseline } from './poller-baseline-read.js';
import { JOINED_CURSOR, readFromCursor } from './poller-cursor-read.js';
import { effectivePollIntervalMs, type PollCallKind } from './poller-calls.js';
import type { ClassifyOptions, InboundItem } from './inbound-item.js';
import { PollPageReader, sourceFilter } from './poller-pages.js';
import { probeListMode, TRUSTING, type ListMode } from './poller-list-mode.js';
import { readPollPositions } from './poller-topics.js';
import { MentionRecheck, recheckRecent, watchRecentConversations } from './poller-recheck.js';
import { BaselineTries } from './baseline-tries.js';

export { sourceFilter } from './poller-pages.js';
export { effectivePollIntervalMs };

const SHALLOW_OVERLAP_SECONDS = 5;
const DEEP_SCAN_EVERY_MS = 60_000;
const PAGE_LIMIT = 100;
const MAX_BACKOFF_MS = 60_000;

export { JOINED_CURSOR };

/** Transient faults: the whole poll backs off; any other refusal of a joint read is looked into topic by topic. */
function isTransient(err: unknown): boolean {
  return err instanceof ServerError || err instanceof ConnectionError || err instanceof RateLimitError;
}

export interface PollerOptions extends ClassifyOptions {
  readonly topicIds: () => Promise<readonly string[]>;
  readonly schedule: (key: string) => void;
  /** Told each page's newest date a read of these topics (`*`: joint) recorded; `throughEnd` at its end (`restart-gap.ts`). */
  readonly onRead?: (topicIds: readonly string[], newestAddedAt: number, throughEnd?: boolean) => void;
  /** Told after every poll, whether it read or failed. */
  readonly afterPoll?: () => void;
}

/**
 * Reads the inbox of every watched topic at once, ascending by date, through every page, from a little before the
 * newest mention seen, and re-reads recent customer mentions for reply actions; records what is new. `tick` is one
 * pass (tests call it); `start` loops it without overlap.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private failures = 0;
  /** Topics whose last read failed. */
  private readonly topics = new Map<string, { failures: number; error: string; retryAtMs: number }>();
  private readonly baselines = new BaselineTries();
  private readonly reader: PollPageReader;
  /** How the list is read, from the start-up probe (`poller-list-mode.ts`). */
  private mode: ListMode = TRUSTING;
  private probed = false;
  /** Recent customer mentions read again by id, for reply actions added to them later. */
  readonly recheck = new MentionRecheck();
  private readonly classify: ClassifyOptions & { watch: (item: InboundItem) => void };

  constructor(
    private readonly ctx: BridgeContext,
    private readonly o: PollerOptions,
  ) {
    this.classify = {
      channelBySource: o.channelBySource,
      keyOfMention: (topicId, id) => this.recheck.keyOf(topicId, id),
      onUnplaced: (m) => {
        this.recheck.hurry();
        ctx.log.debug(
          { topicId: m.topic_id, mentionId: m.id },
          'an account-written mention names no conversation: recent mentions are read again',
        );
      },
      watch: (item) => this.recheck.watch(item, ctx.now()),
      isOwnService: (type, id) => ctx.performerDeps.replyServices.isOwnService(type, id),
    };
    this.reader = new PollPageReader(ctx, o.channelBySource, () => this.countCall('list'));
  }

  /**
   * One pass: every topic read before is read in one paged call (`topic_ids` takes a list) from one cursor; a
   * topic is read alone for its first (baseline) read, and while it fails: its error and backoff are its own and
   * the others are read on. A joint read the service refuses (not a transient fault) is split into reads of each
   * topic, so one refused topic never holds up the others. The pass throws when nothing could be read, when the
   * joint read met a transient fault, or when the token is refused, so the loop backs off.
   */
  async tick(): Promise<{ recorded: number }> {
    const { ctx } = this;
    let recorded = 0;
    let failed: unknown;
    let read = 0;
    const joined: string[] = [];
    const alone: string[] = [];
    /** The joint read met a transient fault: the pass fails (the loop backs off) whatever else was read. */
    let jointDown = false;
    for (const topicId of await this.o.topicIds()) {
      const state = this.topics.get(topicId);
      if (state) {
        if (ctx.now() >= state.retryAtMs) alone.push(topicId);
      } else if (parseCursor(await ctx.store.getCursor(topicId)) === undefined) alone.push(topicId);
      else joined.push(topicId);
    }
    if (joined.length > 0) {
      try {
        recorded += await this.pollJoined(joined);
        read += joined.length;
      } catch (err) {
        if (err instanceof AuthError) throw err;
        failed = err;
        jointDown = isTransient(err);
        if (!jointDown) {
          ctx.log.warn({ topics: joined, err: (err as Error)?.message }, 'the joint read of the topics failed; each is read alone');
          // Each resumes from where the joint read stopped, not from its own (old) baseline cursor.
          const at = parseCursor(await ctx.store.getCursor(JOINED_CURSOR));
          for (const topicId of joined) {
            if (at) await ctx.store.setCursor(topicId, at);
            alone.push(topicId);
          }
        }
      }
    }
    for (const topicId of alone) {
      const state = this.topics.get(topicId);
      try {
        recorded += await this.pollTopic(topicId);
        read++;
        if (state) {
          this.topics.delete(topicId);
          ctx.log.info({ topicId }, 'topic read again: it joins the joint read');
        }
      } catch (err) {
        if (err instanceof AuthError) throw err;
        failed = err;
        this.topicFailed(topicId, err);
      }
    }
    if ((read === 0 || jointDown) && failed !== undefined) throw failed;
    recorded += await this.recheckRecent();
    ctx.health.lastPollOkAt = ctx.now();
    ctx.health.lastApiOkAt = ctx.now();
    return { recorded };
  }

  /** The topics read before, in one paged call from the joint cursor (started at the oldest of their own). */
  private async pollJoined(topicIds: readonly string[]): Promise<number> {
    const { ctx } = this;
    let cursor = parseCursor(await ctx.store.getCursor(JOINED_CURSOR));
    const stored = cursor !== undefined;
    if (cursor === undefined) {
      // First joint read (or the first since an upgrade from a cursor per topic): from the oldest topic's cursor,
      // with a deep re-scan at once, so nothing between the topics' own cursors is skipped.
      const own = await Promise.all(topicIds.map(async (t) => parseCursor(await ctx.store.getCursor(t))));
      const oldest = Math.min(...own.map((c) => c?.newestAddedAt ?? Number.POSITIVE_INFINITY));
      if (Number.isFinite(oldest)) cursor = { newestAddedAt: oldest, lastDeepScanAt: 0 }; // 0: a deep re-scan is due (and stored as a number)
    }
    return this.readTopics(JOINED_CURSOR, topicIds, cursor, stored);
  }

  /** A read from the cursor kept under `cursorKey` (`poller-cursor-read.ts`). */
  private readTopics(cursorKey: string, topicIds: readonly string[], start: PollCursor | undefined, stored = true): Promise<number> {
    return readFromCursor(
      {
        ctx: this.ctx,
        reader: this.reader,
        mode: this.mode,
        window: this.windowOptions(),
        pageLimit: PAGE_LIMIT,
        ingest: (m, known) => this.ingest(m, undefined, known),
        ...(this.o.onRead ? { onRead: this.o.onRead } : {}),
      },
      cursorKey,
      topicIds,
      start,
      stored,
    );
  }

  /** The start-up probe of what the mentions list honours (issue 26); a failed probe leaves the trusting mode. */
  private async probeList(): Promise<void> {
    this.probed = true;
    const topicIds = await this.o.topicIds().catch(() => [] as readonly string[]);
    const filter = sourceFilter(this.o.channelBySource);
    const sources = [...this.o.channelBySource.keys()];
    this.mode = await probeListMode(this.ctx, { topicIds, filter, sources, countCall: () => this.countCall('list') });
    if (!this.mode.sourceFilter) this.reader.dropFilter();
  }

  private ingest(
    mentions: Parameters<typeof ingestMentions>[1],
    historyBefore?: number,
    known?: ReadonlySet<Mention>,
  ): Promise<IngestResult> {
    return ingestMentions(this.ctx.store, mentions, {
      ...this.classify,
      historyBefore,
      schedule: this.o.schedule,
      known,
      seen: this.ctx.seen,
    });
  }

  private countCall(kind: PollCallKind): void {
    this.ctx.metrics.pollCalls.inc({ kind });
    this.ctx.health.pollCalls?.record(kind, this.ctx.now());
  }

  private windowOptions(): PollWindowOptions {
    return {
      shallowOverlapSeconds: SHALLOW_OVERLAP_SECONDS,
      lookbackSeconds: this.ctx.settings.lookbackSeconds,
      deepScanEveryMs: DEEP_SCAN_EVERY_MS,
      backfillSeconds: this.ctx.settings.backfillMinutes * 60,
    };
  }

  /** Reads the watched customer mentions again when a pass is due (see `poller-recheck.ts`). */
  private recheckRecent(): Promise<number> {
    return recheckRecent(this.ctx, this.recheck, {
      count: () => this.countCall('recheck'),
      ingest: async (m) => (await this.ingest([m])).recorded,
    });
  }

  /** Per watched topic, how far its reads from the cursor had come (`readPollPositions`). */
  readPositions(): Promise<Map<string, number | undefined>> {
    return readPollPositions(this.ctx, this.o.topicIds, JOINED_CURSOR);
  }

  /** Topics whose last read failed, with their error and when they are tried again. */
  failingTopics(): ReadonlyArray<{ topicId: string; failures: number; error: string; retryAtMs: number }> {
    return [...this.topics].map(([topicId, s]) => ({ topicId, ...s }));
  }

  private topicFailed(topicId: string, err: unknown): void {
    const failures = (this.topics.get(topicId)?.failures ?? 0) + 1;
    const error = (err as Error)?.message ?? String(err);
    const delay = Math.min(MAX_BACKOFF_MS, this.ctx.settings.pollIntervalMs * 2 ** Math.min(failures - 1, 6));
    this.topics.set(topicId, { failures, error, retryAtMs: this.ctx.now() + delay });
    this.ctx.log.warn({ topicId, err: error, failures }, 'reading a topic failed; it backs off, the other topics go on');
  }

  /**
   * Reads every topic that has no cursor yet, once, so what is visible at the first start is history and whatever
   * a customer writes after it is new. Failures are logged; the topic's next poll is its baseline read then.
   */
  async readBaselines(): Promise<void> {
    await watchRecentConversations(this.ctx, this.recheck).catch((err: unknown) =>
      this.ctx.log.warn({ err: (err as Error)?.message }, 'could not list recent conversations to watch their mentions'),
    );
    let topicIds: readonly string[];
    try {
      topicIds = await this.o.topicIds();
    } catch (err) {
      this.ctx.log.warn(
        { err: (err as Error)?.message ?? String(err) },
        'could not list the topics yet; the next poll reads the baselines',
      );
      return;
    }
    for (const topicId of topicIds) {
      if (parseCursor(await this.ctx.store.getCursor(topicId)) !== undefined) continue;
      try {
        await this.pollTopic(topicId);
      } catch (err) {
        this.topicFailed(topicId, err);
      }
    }
    // After the baselines: what the first start shows is history whichever way the list is read.
    if (!this.probed) await this.probeList();
  }

  /** One topic alone: its baseline read when it has no cursor, else a read from a little before its cursor. */
  private async pollTopic(topicId: string): Promise<number> {
    const { ctx } = this;
    const cursor = parseCursor(await ctx.store.getCursor(topicId));
    if (cursor !== undefined) return this.readTopics(topicId, [topicId], cursor);
    const d = { ctx, reader: this.reader, baselines: this.baselines, window: this.windowOptions(), pageLimit: PAGE_LIMIT };
    return readBaseline({ ...d, ingest: (m, historyBefore) => this.ingest(m, historyBefore) }, topicId);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.loopOnce().finally(() => (this.running = undefined));
    }, delayMs);
  }

  private async loopOnce(): Promise<void> {
    const started = Date.now();
    await this.pollOnce();
    const interval = effectivePollIntervalMs(this.ctx.settings.pollIntervalMs, this.ctx.settings.rateLimitPerHour ?? 0);
    // Polls start every interval (not interval after the last one ended), never overlapping; failures back off.
    const next =
      this.failures === 0
        ? Math.max(0, interval - (Date.now() - started))
        : Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(this.failures, 6));
    this.schedule(next);
  }

  /** One poll as the loop runs it: a failure is recorded (and a refused token pauses the bridge), never thrown. */
  async pollOnce(): Promise<void> {
    try {
      await this.tick();
      this.failures = 0;
      await accessAccepted(this.ctx);
    } catch (err) {
      this.failures++;
      const message = (err as Error)?.message ?? String(err);
      this.ctx.health.lastError = { atMs: this.ctx.now(), message };
      if (err instanceof AuthError) this.markRevoked();
      this.ctx.log.warn({ err: message, failures: this.failures }, 'poll failed; backing off');
    }
    if (this.ctx.health.lastPollOkAt !== undefined)
      this.ctx.metrics.pollLagSeconds.set((this.ctx.now() - this.ctx.health.lastPollOkAt) / 1000);
    this.o.afterPoll?.();
  }

  private markRevoked(): void {
    tokenRefused(this.ctx);
  }
}
