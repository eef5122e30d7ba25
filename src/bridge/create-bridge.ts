// The structured-logging port the API client defines; pino satisfies it, and stays in the composition root.
import type { EngageLogger as Logger } from '../engage/index.js';
import type { NluParser, Understander } from '../nlu/index.js';
import { loadUnderstanding } from './understanding-loader.js';
import type { Store } from '../storage/index.js';
import { type Flows, type LanguageGuesser, loadLanguageGuesser, mayGuessLanguage } from '../bot/index.js';
import { DEFAULT_CHANNEL_SERVICES, sourceServiceOf } from '../engage/index.js';
import { withMappedHandover } from './ownership/mapped-handover.js';
import type { BridgeMetrics } from './metrics-port.js';
import type { BridgeEngage } from './bridge-engage.js';
import type { BridgeContext, BridgeHealthState, BridgeSettings } from './bridge-context.js';
import { silentNotifier, TOKEN_REFUSED, type BridgeNotifier } from './notifier.js';
import { GuessReport } from './guess-report.js';
import { Ownership } from './ownership/ownership.js';
import { BusinessHoursCache } from './business-hours-cache.js';
import { KeyedMutex } from './keyed-mutex.js';
import { ConversationWorker } from './conversation-worker.js';
import { ConversationEvents } from './conversation-events.js';
import { createContactDispatcher } from './contact-dispatcher.js';
import { watchedTopics } from './intake/poller-topics.js';
import { takeWebhookPush, type WebhookOutcome } from './intake/webhook-intake.js';
import { PollCallLog } from './intake/poller-calls.js';
import { Poller } from './intake/poller.js';
import { SeenMentions } from './intake/seen-mentions.js';
import { Reconciler } from './ownership/reconcile.js';
import { Scheduler } from './scheduler.js';
import { BridgeControlService } from './bridge-control.js';
import { ReplyServices } from './effects/reply-services.js';
import type { PerformerDeps } from './effects/performer.js';
import { RestartGap } from './intake/restart-gap.js';
import { EffectLines } from './effects/effect-lines.js';
import { serviceNowMs } from './service-time.js';
import { ShadowLog } from './shadow-log.js';
import { shadowEngage } from './shadow-engage.js';

export interface BridgeOptions {
  readonly store: Store;
  readonly engage: BridgeEngage;
  readonly flows: Flows;
  readonly settings: BridgeSettings;
  readonly log: Logger;
  readonly metrics: BridgeMetrics;
  readonly notifier?: BridgeNotifier;
  readonly now?: () => number;
  /** The NLU server's client, when BRIDGE_NLU_URL is set (asked first; the embedded model, trained here, after it). */
  readonly nlu?: NluParser;
  /** The reader of customers' messages, when the caller trained it already (`loadUnderstanding`); default: trained here. */
  readonly understanding?: () => Promise<Understander | undefined>;
  /**
   * Loads the language detector (default: tinyld, `loadLanguageGuesser`), once: as the bridge starts (a command-only
   * bridge: at its first message), and never when the flows cannot use it.
   */
  readonly languageGuesser?: () => Promise<LanguageGuesser>;
  /**
   * `service/id` to the deployment's keyed-hash pseudonym (`service/c-…`, as log lines show it): `forget` names the
   * contact so in the audit. Default: a key of this process only.
   */
  readonly pseudonym?: (contact: string) => string;
}

export type Bridge = Awaited<ReturnType<typeof createBridge>>;

/** Wires ingestion, the per-contact workers, ownership, the outbox and the scheduler around one store and client. */
export async function createBridge(o: BridgeOptions) {
  const now = o.now ?? Date.now;
  const notifier: BridgeNotifier = { ...silentNotifier };
  if (o.notifier) Object.assign(notifier, forMode(o.settings.mode, o.notifier));
  const mutex = new KeyedMutex();
  // Shadow mode: the same bridge on a client that reads and never writes (`shadow-engage.ts`).
  const shadow = o.settings.mode === 'shadow' ? new ShadowLog(now()) : undefined;
  const engage = withMappedHandover(shadow ? shadowEngage(o.engage, shadow, now) : o.engage, o.settings.channelServices);
  const hours = new BusinessHoursCache(o.engage, o.settings.businessHoursSchedule, now, o.log);
  const guesses = new GuessReport({ log: o.log, counter: o.metrics.guessesNotHeld });
  const health: BridgeHealthState = {
    pausedForAll: false,
    revoked: false,
    pollCalls: new PollCallLog(),
    guesses,
    ...(shadow ? { shadow } : {}),
  };
  const ownership = new Ownership({
    store: o.store,
    engage,
    now,
    confirmAgeMs: o.settings.ownerConfirmAgeMs,
    pausedForAll: () => health.pausedForAll,
    guesses,
  });
  const channelServices = o.settings.channelServices ?? DEFAULT_CHANNEL_SERVICES;
  const performerDeps: PerformerDeps = {
    store: o.store,
    engage,
    ownership,
    replyServices: new ReplyServices(engage, now, channelServices),
    notifier,
    metrics: o.metrics,
    log: o.log,
    now,
    ...(shadow ? { shadow } : {}),
  };
  // Built in dependency order, each part from parts already built. The one cycle (the dispatcher runs the worker,
  // whose context wakes contacts through the dispatcher) is cut in one place: the dispatcher exists first, and
  // `serve` gives it the worker's run once the worker exists.
  const dispatcher = createContactDispatcher({
    concurrency: o.settings.maxConcurrentContacts,
    now,
    onError: (key, err, retryInMs) => {
      health.lastError = { atMs: now(), message: (err as Error)?.message ?? String(err) };
      o.log.error({ contact: key, err: (err as Error)?.message, retryInMs }, 'processing a contact failed; it is retried');
    },
  });
  const ctx: BridgeContext = {
    store: o.store,
    engage,
    ownership,
    flows: o.flows,
    now,
    log: o.log,
    metrics: o.metrics,
    notifier,
    hours,
    settings: o.settings,
    understanding: o.understanding ?? loadUnderstanding(o.flows, o.nlu, o.log),
    languageGuesser: loadOnce(o.languageGuesser ?? loadLanguageGuesser, o.log),
    health,
    performerDeps,
    clean: new Set(),
    seen: new SeenMentions(o.store),
    effectLines: new EffectLines(),
    wake: dispatcher.wake,
  };
  const events = new ConversationEvents(ctx, mutex);
  const gap = new RestartGap({
    now,
    serviceNowMs: () => serviceNowMs(ctx),
    wake: (key, atMs) => dispatcher.wake(key, atMs),
    onExpired: (detail) =>
      o.log.warn(detail, 'after the restart the poll did not read past the outage in time: messages are decided as they come'),
    onClosed: (detail) => o.log.info(detail, 'the poll has read past the restart: messages are decided as they come again'),
  });
  const worker = new ConversationWorker(ctx, mutex, events, gap);
  dispatcher.serve((key) => worker.work(key));

  const channelBySource = new Map(o.settings.channels.map((c) => [sourceServiceOf(channelServices, c), c]));
  const topicIds = watchedTopics({
    configured: o.settings.topicIds,
    list: async () => (await o.engage.topics.all({ limit: 200 })).map((t) => String(t.id)),
    now,
    onRefreshError: (err) => o.log.warn({ err: (err as Error)?.message }, 'could not list the topics again; keeping the last list'),
  });
  const poller = new Poller(ctx, {
    channelBySource,
    topicIds,
    schedule: (k) => dispatcher.schedule(k),
    onRead: (topics, newest, throughEnd) => gap.read(topics, newest, throughEnd),
    afterPoll: () => gap.expireIfDue(),
  });
  const reconciler = new Reconciler(ctx, events);
  const control = new BridgeControlService(ctx, events, topicIds, o.pseudonym);
  const scheduler = new Scheduler(ctx, {
    reconcile: () => reconciler.run(),
    refreshHours: () => hours.refresh(),
    releaseQueued: () => reconciler.releaseQueued(),
    housekeeping: async () => {
      // Both use the store's retention settings (BRIDGE_*_RETENTION_DAYS, BRIDGE_ARCHIVE_AFTER_DAYS).
      await o.store.prune();
      await o.store.archiveInactive();
    },
    retention: async () => {
      // BRIDGE_TRANSCRIPT_RETENTION_DAYS, BRIDGE_ARCHIVE_RETENTION_DAYS, BRIDGE_SURVEY_RETENTION_DAYS.
      const removed = await o.store.applyRetention();
      if (Object.values(removed).some((n) => n > 0)) o.log.info({ removed }, 'retention: deleted what is kept no longer');
    },
  });

  /**
   * Loads what the store remembers and picks up unfinished work; does not start the loops. `commandOnly` (a manager
   * command with no bridge running) loads the store's state and the hours only: no first-start baselines (that is
   * the running bridge's first read) and no backlog; contacts a command wakes still run.
   */
  async function prepare(options: { commandOnly?: boolean } = {}): Promise<void> {
    const meta = await o.store.getMeta();
    ctx.health.pausedForAll = meta.values['pausedForAll'] === true;
    const restarted = meta.baselineAt !== undefined;
    if (meta.baselineAt === undefined && !options.commandOnly) {
      // Informational only: each topic's first read records what it shows as history (see poll-window.ts).
      await o.store.setMeta({ baselineAt: now() });
      o.log.info(
        { backfillMinutes: o.settings.backfillMinutes },
        'first start: what each topic shows at its first read is history, not answered',
      );
    }
    try {
      await hours.refresh();
      if (hours.numbering) guesses.recordProbe('weekday-numbering', hours.numbering);
    } catch (err) {
      o.log.warn({ err: (err as Error).message }, 'could not read business hours and canned responses yet; retrying on schedule');
    }
    if (options.commandOnly) return;
    // Pushes failed while the bridge was down; the poll finds those mentions later (`restart-gap.ts`). Opened after
    // the first answers, so the service's time at the restart is known.
    if (restarted) gap.opened(await poller.readPositions());
    await poller.readBaselines();
    const keys = new Set<string>();
    for (const m of await o.store.pendingInbound()) keys.add(m.key);
    for (const e of await o.store.pendingEffects()) keys.add(e.contactKey);
    for (const key of keys) dispatcher.schedule(key);
  }

  return {
    context: ctx,
    control,
    poller,
    reconciler,
    dispatcher,
    events,
    prepare,
    /** Slack's notifier arrives after the bridge exists (its buttons need the bridge): plug it in. */
    setNotifier(n: Partial<BridgeNotifier>): void {
      Object.assign(notifier, forMode(o.settings.mode, n));
    },
    async start(options: { poll?: boolean; schedule?: boolean } = {}): Promise<void> {
      // The language detector takes 0.1–0.4 s of module evaluation that blocks everything else: loaded now, next to
      // the start's own waits, rather than in the first customer's answer (it stalled a burst's first answers).
      const detector = mayGuessLanguage(ctx.flows) ? ctx.languageGuesser() : undefined;
      // Training the NLU starts now too, unless the caller trained it before the store opened (cli/open-core.ts); the first
      // customer message waits for it (it never fails: no NLU, keywords). Not awaited here, so the start is not held up.
      void ctx.understanding();
      await prepare();
      await detector;
      if (options.poll ?? true) poller.start();
      if (options.schedule ?? true) scheduler.start();
    },
    /** The webhook: records the pushed mentions it may take (in memory) and answers; the workers run after. */
    async acceptWebhook(body: unknown): Promise<WebhookOutcome | { error: string }> {
      const outcome = await takeWebhookPush(body, {
        store: o.store,
        seen: ctx.seen,
        metrics: ctx.metrics,
        channelBySource,
        isOwnService: (type, id) => performerDeps.replyServices.isOwnService(type, id),
        topicIds,
        schedule: (k) => dispatcher.schedule(k),
        fetchMention: (m) => o.engage.mentions.get({ topicId: m.topic_id, id: m.id }),
      });
      if ('accepted' in outcome && outcome.accepted > 0) ctx.health.customerSeenElsewhereAt = now();
      return outcome;
    },
    /** `code` is what `/readyz` answers; `detail` goes to the log only (it may carry API error text). */
    readiness(): { ready: boolean; code?: string; detail?: string } {
      if (ctx.health.revoked) return { ready: false, code: 'token-refused', detail: TOKEN_REFUSED };
      if (ctx.health.lastApiOkAt === undefined) return { ready: false, code: 'no-api-contact' };
      const lagMs = now() - (ctx.health.lastPollOkAt ?? 0);
      if (lagMs > Math.max(60_000, o.settings.pollIntervalMs * 10)) {
        return {
          ready: false,
          code: 'poll-stale',
          detail: `the last successful poll was ${Math.round(lagMs / 1000)} s ago${ctx.health.lastError ? `: ${ctx.health.lastError.message}` : ''}`,
        };
      }
      const blind = pollBlind(ctx.health, now(), o.settings.pollIntervalMs);
      if (blind) return { ready: false, code: 'poll-sees-nothing', detail: blind };
      return { ready: true };
    },
    /** Resolves when no contact has work waiting (tests and shutdown). */
    idle: () => dispatcher.idle(),
    async stop(): Promise<void> {
      await poller.stop();
      await scheduler.stop();
      await dispatcher.stop();
      await o.store.flush();
    },
  };
}

/**
 * In shadow mode nothing was handed to people, so no escalation notice may ask them to act (or offer "Return to bot"):
 * only the notices about the bridge itself (a refused token, a pause) reach Slack. The `shadow` command has the rest.
 */
function forMode(mode: BridgeSettings['mode'], n: Partial<BridgeNotifier>): Partial<BridgeNotifier> {
  if (mode !== 'shadow') return n;
  return {
    ...(n.tokenRevoked ? { tokenRevoked: n.tokenRevoked } : {}),
    ...(n.bridgePaused ? { bridgePaused: n.bridgePaused } : {}),
  };
}

/**
 * The poll keeps listing nothing while the webhook or the re-check by id records customers' messages (issue 26): a
 * mentions list that does not answer what the poll asks (a filter or window it reads otherwise) leaves the bridge
 * blind to whatever is not pushed. Said once the poll had ample time to list what was seen elsewhere.
 */
export function pollBlind(health: BridgeHealthState, nowMs: number, pollIntervalMs: number): string | undefined {
  const seen = health.customerSeenElsewhereAt;
  if (seen === undefined || (health.pollListedAt ?? 0) >= seen) return undefined;
  const graceMs = Math.max(60_000, pollIntervalMs * 10);
  if (nowMs - seen < graceMs || (health.lastPollOkAt ?? 0) < seen + graceMs) return undefined;
  return `the poll has listed nothing since a customer's message was recorded by the webhook or the re-check ${Math.round((nowMs - seen) / 1000)} s ago`;
}

/** Loads the language detector at the first call, once; a failure is logged and leaves the bridge without guesses. */
function loadOnce(load: () => Promise<LanguageGuesser>, log: Logger): () => Promise<LanguageGuesser | undefined> {
  let loading: Promise<LanguageGuesser | undefined> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      log.warn(
        { err: (err as Error)?.message ?? String(err) },
        'could not load the language detector: no language is guessed from the text',
      );
      return undefined;
    });
    return loading;
  };
}
