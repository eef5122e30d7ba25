import {
  AuthError,
  ConnectionError,
  InvalidParameterError,
  RateLimitError,
  ServerError,
  type InvalidListItem,
  type MentionListQuery,
  type MentionPage,
} from '../engage/index.js';
import type { BridgeContext } from './bridge-context.js';
import { accessAccepted, tokenRefused } from './token-health.js';
import { ingestMentions } from './ingest.js';
import { advanceCursor, nextWindow, parseCursor, type PollWindowOptions } from './poll-window.js';
import type { PollCallKind } from './poller-calls.js';
import type { ClassifyOptions, InboundItem } from './inbound-item.js';
import { MentionRecheck, recheckRecent, watchRecentConversations } from './poller-recheck.js';
import { serviceNowMs } from './service-time.js';
import { BaselineTries } from './baseline-tries.js';

const SHALLOW_OVERLAP_SECONDS = 5;
const DEEP_SCAN_EVERY_MS = 60_000;
const PAGE_LIMIT = 100;
const MAX_BACKOFF_MS = 60_000;
const MAX_LOGGED_INVALID = 10_000;

/** Where the joint read of every topic keeps its cursor (a service topic id is never `*`). */
export const JOINED_CURSOR = '*';

/**
 * Polls never take more than half of a configured hourly budget, so replies always have room. `callsPerPoll`: one
 * since every topic is read in one call (more pages, baseline reads and re-reads come on top, bounded).
 */
export function effectivePollIntervalMs(pollIntervalMs: number, budgetPerHour: number, callsPerPoll = 1): number {
  if (budgetPerHour <= 0) return pollIntervalMs;
  return Math.max(pollIntervalMs, Math.ceil((3_600_000 * Math.max(1, callsPerPoll)) / (budgetPerHour * 0.5)));
}

/** Transient faults: the whole poll backs off; any other refusal of a joint read is looked into topic by topic. */
function isTransient(err: unknown): boolean {
  return err instanceof ServerError || err instanceof ConnectionError || err instanceof RateLimitError;
}

/** `source:whatsapp OR source:web`: only the served sources, when every name is a plain word the filter can hold. */
export function sourceFilter(channelBySource: ReadonlyMap<string, string>): string | undefined {
  const sources = [...channelBySource.keys()];
  if (sources.length === 0 || !sources.every((s) => /^[A-Za-z0-9_-]+$/.test(s))) return undefined;
  return sources.map((s) => `source:${s}`).join(' OR ');
}

export interface PollerOptions extends ClassifyOptions {
  readonly topicIds: () => Promise<readonly string[]>;
  readonly schedule: (key: string) => void;
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
  /** Invalid items already counted and logged. */
  private readonly loggedInvalid = new Set<string>();
  /** The service refused the source filter once: every source is read. */
  private filterRefused = false;
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
    };
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
    if (cursor === undefined) {
      // First joint read (or the first since an upgrade from a cursor per topic): from the oldest topic's cursor,
      // with a deep re-scan at once, so nothing between the topics' own cursors is skipped.
      const own = await Promise.all(topicIds.map(async (t) => parseCursor(await ctx.store.getCursor(t))));
      const oldest = Math.min(...own.map((c) => c?.newestAddedAt ?? Number.POSITIVE_INFINITY));
      if (Number.isFinite(oldest)) cursor = { newestAddedAt: oldest, lastDeepScanAt: 0 }; // 0: a deep re-scan is due (and stored as a number)
    }
    const window = nextWindow(cursor, ctx.now(), this.windowOptions());
    let recorded = 0;
    let newest: number | undefined;
    for await (const page of this.pages({
      topicIds,
      dateFrom: new Date(window.fromSeconds * 1000),
      sort: 'dateadd:asc',
      limit: PAGE_LIMIT,
    })) {
      this.skipInvalid('*', page.invalid);
      const r = await ingestMentions(ctx.store, page.data, { ...this.classify, schedule: this.o.schedule });
      recorded += r.recorded;
      if (r.newestAddedAt !== undefined) newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
      // Progress is kept page by page (ascending by date): a failed page or a restart resumes here, not from the start.
      if (newest !== undefined)
        await ctx.store.setCursor(JOINED_CURSOR, advanceCursor(cursor, newest, ctx.now(), { ...window, deep: false }));
    }
    await ctx.store.setCursor(JOINED_CURSOR, advanceCursor(cursor, newest, ctx.now(), window));
    if (newest !== undefined) ctx.health.newestMentionAt = Math.max(ctx.health.newestMentionAt ?? 0, newest * 1000);
    return recorded;
  }

  /**
   * The pages of a list read, narrowed to the served sources (`source:` clauses of the list filter) unless the
   * service refused that filter once: a read refused with the filter and answered without it drops it for good.
   */
  private async *pages(query: MentionListQuery): AsyncGenerator<MentionPage, void, undefined> {
    const filter = this.filterRefused ? undefined : sourceFilter(this.o.channelBySource);
    // Most items a poll reads were recorded already (its overlap, the webhook): they need no full check again.
    const known = { isKnown: (topicId: string, id: string) => this.ctx.store.hasSeen(topicId, id) };
    let yielded = false;
    try {
      for await (const page of this.ctx.engage.mentions.listPages(filter ? { ...query, filter } : query, known)) {
        this.countCall('list');
        // Before its mentions are recorded and their contacts' workers start: they must find the bridge resumed.
        if (!yielded) await accessAccepted(this.ctx);
        yielded = true;
        yield page;
      }
      return;
    } catch (err) {
      this.countCall('list'); // the call that failed costs as much as one that answered
      if (!filter || yielded || !(err instanceof InvalidParameterError)) throw err;
    }
    try {
      for await (const page of this.ctx.engage.mentions.listPages(query, known)) {
        this.countCall('list');
        if (!this.filterRefused) {
          this.filterRefused = true;
          this.ctx.log.warn({ filter }, 'the service refused the source filter of the mentions list: every source is read');
        }
        yield page;
      }
    } catch (err) {
      this.countCall('list');
      throw err;
    }
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
      ingest: async (m) => (await ingestMentions(this.ctx.store, [m], { ...this.classify, schedule: this.o.schedule })).recorded,
    });
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

  private skipInvalid(topicId: string, invalid: readonly InvalidListItem[]): void {
    for (const item of invalid) {
      // Counted and logged once per item, though every overlapping poll reads it again.
      const id = `${topicId}/${item.id ?? '?'}`;
      if (this.loggedInvalid.has(id)) continue;
      if (this.loggedInvalid.size >= MAX_LOGGED_INVALID) this.loggedInvalid.clear();
      this.loggedInvalid.add(id);
      this.ctx.metrics.skippedItems.inc({ source: 'poll', reason: 'invalid-mention' });
      this.ctx.log.warn({ topicId, mentionId: item.id, problem: item.problem }, 'skipped a mention that cannot be read');
    }
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
  }

  /** One topic alone: its baseline read when it has no cursor, else a read from a little before its cursor. */
  private async pollTopic(topicId: string): Promise<number> {
    const { ctx } = this;
    let recorded = 0;
    const cursor = parseCursor(await ctx.store.getCursor(topicId));
    const o = this.windowOptions();
    // A baseline's reach and its history boundary are moments on the service's clock (ours until it answered once).
    const window = nextWindow(cursor, cursor === undefined ? (serviceNowMs(ctx) ?? ctx.now()) : ctx.now(), o);
    if (window.baseline) this.baselines.note(topicId, serviceNowMs(ctx));
    const plan = window.baseline ? this.baselines.plan(topicId, window, o.backfillSeconds + o.lookbackSeconds) : undefined;
    const historyBefore = plan?.historyBefore;
    let newest: number | undefined;
    const dateFrom = new Date((plan?.fromSeconds ?? window.fromSeconds) * 1000);
    for await (const page of this.pages({ topicIds: [topicId], dateFrom, sort: 'dateadd:asc', limit: PAGE_LIMIT })) {
      if (window.baseline) this.baselines.note(topicId, serviceNowMs(ctx));
      this.skipInvalid(topicId, page.invalid);
      const r = await ingestMentions(ctx.store, page.data, { ...this.classify, historyBefore, schedule: this.o.schedule });
      recorded += r.recorded;
      if (r.newestAddedAt !== undefined) newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
      // Progress is kept page by page (ascending by date): a failed page or a restart resumes here, not from the start.
      if (!window.baseline && newest !== undefined) {
        await ctx.store.setCursor(topicId, advanceCursor(cursor, newest, ctx.now(), { ...window, deep: false }));
      }
    }
    await ctx.store.setCursor(topicId, advanceCursor(cursor, newest, ctx.now(), window));
    if (newest !== undefined) ctx.health.newestMentionAt = Math.max(ctx.health.newestMentionAt ?? 0, newest * 1000);
    return recorded;
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
  }

  private markRevoked(): void {
    tokenRefused(this.ctx);
  }
}
