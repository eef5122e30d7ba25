import { AuthError, NotFoundError, type InvalidMentionItem, type Mention } from '../engage/index.js';
import type { BridgeContext } from './bridge-context.js';
import { TOKEN_REFUSED } from './notifier.js';
import { ingestMentions } from './ingest.js';
import { advanceCursor, nextWindow, parseCursor } from './poll-window.js';
import type { ClassifyOptions, InboundItem } from './inbound-item.js';
import { MentionRecheck, RECHECK_FOR_MS } from './poller-recheck.js';

const SHALLOW_OVERLAP_SECONDS = 5;
const DEEP_SCAN_EVERY_MS = 60_000;
const PAGE_LIMIT = 100;
const MAX_BACKOFF_MS = 60_000;
const MAX_LOGGED_INVALID = 10_000;

/** Polls never take more than half of a configured hourly budget, so replies always have room. */
export function effectivePollIntervalMs(pollIntervalMs: number, budgetPerHour: number, topics: number): number {
  if (budgetPerHour <= 0) return pollIntervalMs;
  return Math.max(pollIntervalMs, Math.ceil((3_600_000 * Math.max(1, topics)) / (budgetPerHour * 0.5)));
}

export interface PollerOptions extends ClassifyOptions {
  readonly topicIds: () => Promise<readonly string[]>;
  readonly schedule: (key: string) => void;
}

/**
 * Reads the inbox of every watched topic, ascending by date, through every page, from a little before the newest
 * mention seen; records what is new. `tick` is one pass (tests call it); `start` loops it without overlap.
 */
export class Poller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private failures = 0;
  /** Topics whose last read failed. */
  private readonly topics = new Map<string, { failures: number; error: string; retryAtMs: number }>();
  /** Invalid items already counted and logged. */
  private readonly loggedInvalid = new Set<string>();
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
   * One pass over the topics. Each topic fails alone: its error and backoff are its own and the others are read
   * on. The pass throws only when no topic could be read (or the token is refused), so the loop backs off.
   */
  async tick(): Promise<{ recorded: number }> {
    let recorded = 0;
    let failed: unknown;
    let read = 0;
    for (const topicId of await this.o.topicIds()) {
      const state = this.topics.get(topicId);
      if (state && this.ctx.now() < state.retryAtMs) continue;
      try {
        recorded += await this.pollTopic(topicId);
        read++;
        if (state) {
          this.topics.delete(topicId);
          this.ctx.log.info({ topicId }, 'topic read again');
        }
      } catch (err) {
        if (err instanceof AuthError) throw err;
        failed = err;
        this.topicFailed(topicId, err);
      }
    }
    if (read === 0 && failed !== undefined) throw failed;
    recorded += await this.recheckRecent();
    this.ctx.health.lastPollOkAt = this.ctx.now();
    this.ctx.health.lastApiOkAt = this.ctx.now();
    return { recorded };
  }

  /**
   * Reads the watched customer mentions again by id (a bounded number per pass, when a pass is due): a reply action
   * a person added to one of them is recorded like any other. One failed read is logged and skipped.
   */
  private async recheckRecent(): Promise<number> {
    const { ctx } = this;
    let recorded = 0;
    for (const w of this.recheck.due(ctx.now())) {
      let mention: Mention;
      try {
        ctx.metrics.pollCalls.inc({ kind: 'recheck' });
        mention = await ctx.engage.mentions.get({ topicId: w.topicId, id: w.id });
      } catch (err) {
        if (err instanceof AuthError) throw err;
        if (err instanceof NotFoundError) this.recheck.forget(w.key);
        else this.recheck.checked(w, ctx.now());
        ctx.log.warn({ topicId: w.topicId, mentionId: w.id, err: (err as Error)?.message }, 'could not read a recent mention again');
        continue;
      }
      this.recheck.checked(w, ctx.now());
      recorded += (await ingestMentions(ctx.store, [mention], { ...this.classify, schedule: this.o.schedule })).recorded;
    }
    return recorded;
  }

  /** After a restart: the latest customer mention of each conversation the bot spoke in recently is watched again. */
  private async watchRecentConversations(): Promise<void> {
    const { ctx } = this;
    for (const c of await ctx.store.listConversations({ owner: 'bot' })) {
      if (!c.lastMentionId || !c.lastMentionTopicId || ctx.now() - c.updatedAt > RECHECK_FOR_MS) continue;
      this.recheck.watch(
        { topicId: c.lastMentionTopicId, id: c.lastMentionId, key: c.key, addedAt: (c.lastInboundAt ?? 0) / 1000 },
        c.updatedAt,
      );
    }
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

  private skipInvalid(topicId: string, invalid: readonly InvalidMentionItem[]): void {
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
    await this.watchRecentConversations().catch((err: unknown) =>
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

  /** One topic: its baseline read when it has no cursor, else a read from a little before its cursor. */
  private async pollTopic(topicId: string): Promise<number> {
    const { ctx } = this;
    let recorded = 0;
    const cursor = parseCursor(await ctx.store.getCursor(topicId));
    const window = nextWindow(cursor, ctx.now(), {
      shallowOverlapSeconds: SHALLOW_OVERLAP_SECONDS,
      lookbackSeconds: ctx.settings.lookbackSeconds,
      deepScanEveryMs: DEEP_SCAN_EVERY_MS,
      backfillSeconds: ctx.settings.backfillMinutes * 60,
    });
    const historyBefore = window.baseline ? window.answerFromSeconds : undefined;
    let newest: number | undefined;
    for await (const page of ctx.engage.mentions.listPages({
      topicIds: [topicId],
      dateFrom: new Date(window.fromSeconds * 1000),
      sort: 'dateadd:asc',
      limit: PAGE_LIMIT,
    })) {
      ctx.metrics.pollCalls.inc({ kind: 'list' });
      this.skipInvalid(topicId, page.invalid);
      const r = await ingestMentions(ctx.store, page.data, { ...this.classify, historyBefore, schedule: this.o.schedule });
      recorded += r.recorded;
      if (r.newestAddedAt !== undefined) newest = Math.max(newest ?? r.newestAddedAt, r.newestAddedAt);
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
    const interval = effectivePollIntervalMs(
      this.ctx.settings.pollIntervalMs,
      this.ctx.settings.rateLimitPerHour ?? 0,
      (await this.o.topicIds().catch(() => [])).length,
    );
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
      if (this.ctx.health.revoked) {
        this.ctx.health.revoked = false;
        this.ctx.log.info({}, 'the access token is accepted again: the bridge resumes');
      }
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
    if (this.ctx.health.revoked) return;
    this.ctx.health.revoked = true;
    this.ctx.log.error({}, TOKEN_REFUSED);
    this.ctx.notifier.tokenRevoked();
  }
}
