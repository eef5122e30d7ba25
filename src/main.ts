import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createEngageClient, RateLimitRegistry } from './engage/index.js';
import { openFileStore, type Store } from './storage/index.js';
import { openPostgresStore } from './storage/postgres/open-postgres-store.js';
import { describeFlowFile, loadFlowFile, locateFlowFile } from './settings/flow-file.js';
import { createBridge, type Bridge } from './bridge/create-bridge.js';
import type { BridgeSettings } from './bridge/bridge-context.js';
import { withMappedHandover } from './bridge/mapped-handover.js';
import { createBridgeMetrics, METRICS_CONTENT_TYPE, type BridgeMetrics } from './metrics/bridge-metrics.js';
import { startHttpServer, type RunningHttpServer } from './http/http-server.js';
import { commandSocketPath, startCommandSocket } from './http/command-socket.js';
import { createSimulator, DEFAULT_ACCOUNT_ID, DEFAULT_TOKEN, type RunningSimulator } from './simulator/index.js';
import { createCommandRunner, runCliCommand, type CommandDeps } from './commands/index.js';
import { createSlackApp, originOf, type SlackApp } from './slack/index.js';
import { createNluClient, type NluParser } from './nlu/index.js';

export interface StartDeps {
  readonly log: Logger;
  /** Where the working directory is (flow file, data directory). */
  readonly cwd: string;
  readonly now?: () => number;
  /** Start the poll and scheduler loops (tests of a single tick turn them off). */
  readonly loops?: boolean;
  /** Demo mode: the simulator's port (default 4010, or any free port when taken). */
  readonly demoPort?: number;
  /** Ends a PostgreSQL standby's wait for the lease (the process was asked to stop). */
  readonly stopSignal?: AbortSignal;
}

export interface RunningBridge {
  readonly bridge: Bridge;
  readonly store: Store;
  readonly metrics: BridgeMetrics;
  readonly http: RunningHttpServer;
  /** The owner-only Unix socket that `engage-bridge cmd` talks to. */
  readonly commandSocketPath: string;
  readonly simulator?: RunningSimulator;
  readonly slack?: { port: number | null };
  readonly engage: { baseUrl: string; accountId: string };
  /** The terminal's manager commands, on the same executors as Slack. */
  readonly commandDeps: CommandDeps;
  stop(): Promise<void>;
}

/**
 * How many calls of each class the bridge's client has in flight. Replies to different contacts go out side by
 * side (each contact stays in order in its own worker); polls are one at a time anyway.
 */
export const BRIDGE_CLIENT_CONCURRENCY = { read: 8, write: 8, handover: 4 } as const;

/** The bridge's part of the settings. */
export function bridgeSettingsOf(config: Config): BridgeSettings {
  const b = config.bridge;
  return {
    channels: config.engage.channels,
    channelServices: config.engage.channelServices,
    topicIds: config.engage.topicIds,
    rateLimitPerHour: config.engage.rateLimitPerHour,
    pollIntervalMs: b.pollIntervalMs,
    lookbackSeconds: b.lookbackSeconds,
    backfillMinutes: b.backfillMinutes,
    ownerConfirmAgeMs: b.ownerConfirmAgeMs,
    agentsReconfirmAgeMs: b.agentsReconfirmAgeMs,
    idleReturnMinutes: b.idleReturnMinutes,
    maxReplyAgeMinutes: b.maxReplyAgeMinutes,
    stuckEscalationMinutes: b.stuckEscalationMinutes,
    maxConcurrentContacts: b.maxConcurrentContacts,
    transcriptLines: b.transcriptLines,
    businessHoursSchedule: b.businessHoursSchedule,
  };
}

/** The client-side token bucket for ENGAGE_RATE_LIMIT_PER_HOUR (0: only the service's own headers). */
/** The NLU client; its failures are logged without the server's address (it may carry credentials). */
export function nluClientOf(config: Config, now: () => number, log: Logger): NluParser {
  const nluLog = log.child({ component: 'nlu' });
  return createNluClient({
    url: config.nlu.url ?? '',
    timeoutMs: config.nlu.timeoutMs,
    breakerFailures: config.nlu.breakerFailures,
    breakerOpenMs: config.nlu.breakerOpenMs,
    now,
    onFailure: (why) => nluLog.warn({ why }, 'NLU gave no answer; matching keywords instead'),
    onBreaker: (state) =>
      state === 'open'
        ? nluLog.error({ forMs: config.nlu.breakerOpenMs }, 'NLU failed repeatedly: not asking it for a while')
        : nluLog.info({}, 'NLU answers again'),
  });
}

export function bucketOf(perHour: number) {
  // 0: no client-side budget beyond the service's own headers.
  if (perHour <= 0) return { burst: 200, requestsPerSecond: 500 };
  return { burst: Math.max(1, Math.min(20, Math.floor(perHour / 60))), requestsPerSecond: perHour / 3600 };
}

async function startDemoSimulator(port: number | undefined, log: Logger): Promise<RunningSimulator> {
  const handle = createSimulator();
  try {
    return await handle.listen({ host: '127.0.0.1', port: port ?? 4010 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    log.warn({ port: port ?? 4010 }, 'the demo port is taken; the simulator uses any free port');
    return handle.listen({ host: '127.0.0.1', port: 0 });
  }
}

/** What every way of running the bridge shares: flows, store, client, bridge, and the commands' dependencies. */
async function openCore(
  config: Config,
  deps: Pick<StartDeps, 'log' | 'cwd' | 'now'>,
  cleanups: Array<() => Promise<void>>,
  engageTarget: { baseUrl: string; accountId: string; token: string },
  options: { standby?: { signal?: AbortSignal }; settings?: Partial<BridgeSettings>; defaultMetrics?: boolean } = {},
) {
  const { log } = deps;
  const now = deps.now ?? Date.now;
  const flowFile = locateFlowFile(config.bridge.flowFile, deps.cwd);
  const flows = await loadFlowFile(flowFile.path);
  log.info({ flowFile: flowFile.path, source: flowFile.source }, `flows loaded from ${describeFlowFile(flowFile)}`);
  const dataDir = resolve(deps.cwd, config.bridge.dataDir);
  const storeOptions = {
    clock: now,
    logger: log.child({ component: 'store' }),
    transcriptMaxLines: config.bridge.transcriptLines,
    retention: {
      seenIdsDays: config.bridge.seenRetentionDays,
      auditDays: config.bridge.auditRetentionDays,
      archiveAfterDays: config.bridge.archiveAfterDays,
    },
  };
  const store: Store = config.bridge.databaseUrl
    ? await openPostgresStore({
        ...storeOptions,
        databaseUrl: config.bridge.databaseUrl,
        leaseTtlMs: config.bridge.leaseTtlMs,
        ...(options.standby ? { standby: options.standby } : {}),
      })
    : await openFileStore({ ...storeOptions, dataDir, debugSyncRecord: config.bridge.debugSyncRecord });
  cleanups.push(() => store.close());
  const metrics = createBridgeMetrics({ defaultMetrics: options.defaultMetrics ?? true });
  const engage = createEngageClient({
    baseUrl: engageTarget.baseUrl,
    accountId: engageTarget.accountId,
    accessToken: engageTarget.token,
    version: config.engage.apiVersion,
    handoverServices: Object.values(config.engage.channelServices).map((c) => c.handoverService),
    logger: log.child({ component: 'engage' }),
    timeouts: { requestMs: config.engage.requestTimeoutMs },
    rateLimit: { registry: new RateLimitRegistry(bucketOf(config.engage.rateLimitPerHour)), concurrency: BRIDGE_CLIENT_CONCURRENCY },
    onRequest: (e) => {
      metrics.apiCalls.inc({ endpoint: e.endpoint, method: e.method, status: e.status === null ? 'none' : String(e.status) });
      metrics.apiLatency.observe({ endpoint: e.endpoint, method: e.method }, e.durationMs / 1000);
    },
  });
  cleanups.push(() => engage.close());
  const bridge = await createBridge({
    store,
    engage,
    flows,
    log: log.child({ component: 'bridge' }),
    metrics,
    now,
    settings: { ...bridgeSettingsOf(config), ...options.settings },
    ...(config.nlu.url ? { nlu: nluClientOf(config, now, log) } : {}),
  });
  const commandDeps: CommandDeps = {
    // Commands name a contact by its channel too; the handover path wants the channel's configured service.
    engage: withMappedHandover(engage, config.engage.channelServices),
    bridge: bridge.control,
    audit: store,
    managerIds: config.slack.managerIds,
    now: () => new Date(now()),
  };
  return { dataDir, store, metrics, engage, bridge, commandDeps };
}

/** Manager commands with no bridge running (`engage-bridge cmd`): the bridge prepared, no loops, no listeners. */
export interface CommandService {
  readonly commandDeps: CommandDeps;
  /** Waits for the work the commands started (bounded by the shutdown deadline), then closes the store and client. */
  close(): Promise<void>;
}

export async function startCommandService(config: Config, deps: Pick<StartDeps, 'log' | 'cwd' | 'now'>): Promise<CommandService> {
  if (!config.engage.accountId) throw new Error('ENGAGE_ACCOUNT_ID is required when ENGAGE_ACCESS_TOKEN is set');
  const cleanups: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (err) {
        deps.log.warn({ err: (err as Error).message }, 'error while closing');
      }
    }
  };
  try {
    const target = { baseUrl: config.engage.baseUrl, accountId: config.engage.accountId, token: config.engage.accessToken ?? '' };
    // No standby: a command never waits for another instance's lease. One contact at a time is plenty here.
    const { store, engage, bridge, commandDeps } = await openCore(config, deps, cleanups, target, {
      settings: { maxConcurrentContacts: 1 },
      defaultMetrics: false,
    });
    // What the store remembers (the pause for everyone, unfinished work) counts, as in a running bridge.
    await bridge.prepare({ commandOnly: true });
    const deadlineMs = config.bridge.shutdownDeadlineMs;
    cleanups.push(async () => {
      // Work the command woke finishes (or, at the deadline, stays pending for the next start) before the store closes.
      if (!(await settlesWithin(bridge.idle(), deadlineMs / 2))) engage.abortInFlight();
      await bridge.stop();
      await store.flush();
    });
    return { commandDeps, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** What shutdown keeps for the steps after the bridge has stopped (flushing the store, closing sockets). */
const FINAL_STEPS_MS = 3000;

/** Waits for `work`; when it is still running after `ms`, calls `late` once (and keeps waiting). */
async function stopsBy(work: Promise<void>, ms: number, late: () => void): Promise<void> {
  const timer = setTimeout(late, Math.max(0, ms));
  try {
    await work;
  } finally {
    clearTimeout(timer);
  }
}

/** True when `work` settled within `ms`; false when it is left running. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The composition root: settings → (demo simulator) → store → client → brain → bridge → Slack → HTTP.
 * Nothing happens at import; everything it starts is stopped by `stop()`, in reverse order.
 */
export async function start(config: Config, deps: StartDeps): Promise<RunningBridge> {
  const { log } = deps;
  const now = deps.now ?? Date.now;
  const cleanups: Array<() => Promise<void>> = [];
  // Shutdown has a deadline (the supervisor kills us after its own): work in flight gets most of it, then the API
  // requests still hanging are cut off (their effects stay pending for the next start) and the store is flushed.
  const deadlineMs = config.bridge.shutdownDeadlineMs;
  let stoppingSince = 0;
  const remainingMs = () => stoppingSince + deadlineMs - Date.now();
  const stopAll = async () => {
    stoppingSince = Date.now();
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'error while stopping');
      }
    }
  };
  try {
    let simulator: RunningSimulator | undefined;
    let engageTarget = { baseUrl: config.engage.baseUrl, accountId: config.engage.accountId ?? '', token: config.engage.accessToken ?? '' };
    if (config.demo) {
      simulator = await startDemoSimulator(deps.demoPort, log);
      cleanups.push(() => simulator!.close());
      engageTarget = { baseUrl: simulator.url, accountId: DEFAULT_ACCOUNT_ID, token: DEFAULT_TOKEN };
    } else if (!engageTarget.accountId) {
      throw new Error('ENGAGE_ACCOUNT_ID is required when ENGAGE_ACCESS_TOKEN is set');
    }
    const { dataDir, store, metrics, engage, bridge, commandDeps } = await openCore(config, deps, cleanups, engageTarget, {
      // Another instance is active: wait as its standby and take over when it stops renewing the lease.
      standby: { ...(deps.stopSignal ? { signal: deps.stopSignal } : {}) },
    });
    let slack: SlackApp | undefined;
    let slackPort: { port: number | null } | undefined;
    if (config.slack.botToken) {
      slack = createSlackApp({
        botToken: config.slack.botToken,
        ...(config.slack.signingSecret ? { signingSecret: config.slack.signingSecret } : {}),
        ...(config.slack.appToken ? { appToken: config.slack.appToken } : {}),
        ...(config.slack.botId ? { botId: config.slack.botId } : {}),
        ...(config.slack.botUserId ? { botUserId: config.slack.botUserId } : {}),
        ...(config.slack.apiUrl ? { apiUrl: config.slack.apiUrl } : {}),
        ...(config.slack.escalationChannel ? { escalationChannel: config.slack.escalationChannel } : {}),
        permalinkOrigins: [originOf(engageTarget.baseUrl)].filter((o): o is string => o !== undefined),
        port: config.slack.port,
        managerIds: config.slack.managerIds,
        command: config.slack.command,
        commands: createCommandRunner(commandDeps),
        bridge: bridge.control,
        audit: store,
        logger: log.child({ component: 'slack' }),
        clock: { now },
      });
      bridge.setNotifier(slack.notifier);
      slackPort = await slack.start();
      cleanups.push(async () => {
        if (!(await settlesWithin(slack!.flushNotices(), remainingMs() - FINAL_STEPS_MS))) {
          log.warn({}, 'stopping: Slack notices still queued at the shutdown deadline are dropped');
        }
        await slack!.stop();
      });
    }
    const http = await startHttpServer(
      {
        readiness: () => bridge.readiness(),
        log: log.child({ component: 'http' }),
        metricsText: async () => {
          metrics.queueDepth.set(bridge.dispatcher.depth());
          metrics.storeWrites.set(store.stats().writes);
          return metrics.text();
        },
        metricsContentType: METRICS_CONTENT_TYPE,
        ...(config.bridge.webhookSecret
          ? { webhook: { secret: config.bridge.webhookSecret, accept: (b: unknown) => bridge.acceptWebhook(b) } }
          : {}),
      },
      { host: config.bridge.httpHost, port: config.bridge.httpPort },
    );
    cleanups.push(() => http.close());
    const commandSocket = await startCommandSocket(
      { run: (text: string) => runCliCommand(text, commandDeps) },
      { path: commandSocketPath(dataDir) },
    );
    cleanups.push(() => commandSocket.close());
    const loops = deps.loops ?? true;
    await bridge.start({ poll: loops, schedule: loops });
    // Stopping the bridge first: no new work, in-flight work finished, store flushed — then the rest closes.
    cleanups.push(() =>
      stopsBy(bridge.stop(), remainingMs() - Math.min(FINAL_STEPS_MS, deadlineMs / 2), () => {
        log.warn({ deadlineMs }, 'stopping: API requests still in flight are cut off; their work stays pending for the next start');
        engage.abortInFlight();
      }),
    );
    if (config.bridge.onStop === 'agents') {
      // Runs first on a stop: customers the bot was talking to in the last hour go to people, not to nobody.
      cleanups.push(async () => {
        const why = 'released to people: the bridge is stopping (BRIDGE_ON_STOP=agents) and the bot will not answer';
        const release = bridge.control
          .releaseToAgents({ sinceMs: 3_600_000, dryRun: false, why }, { id: 'bridge', transport: 'cli' })
          .then((list) => log.info({ contacts: list.filter((c) => c.released).length }, 'stopping: contacts handed to people'));
        // Half of what is left of the shutdown deadline: the rest is for stopping the bridge itself.
        if (!(await settlesWithin(release, remainingMs() / 2))) {
          log.warn({}, 'stopping: handing contacts to people took too long; the rest stay with the bot');
        }
      });
    }
    return {
      bridge,
      store,
      metrics,
      http,
      commandSocketPath: commandSocket.path,
      engage: { baseUrl: engageTarget.baseUrl, accountId: engageTarget.accountId },
      commandDeps,
      ...(simulator ? { simulator } : {}),
      ...(slackPort ? { slack: slackPort } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
