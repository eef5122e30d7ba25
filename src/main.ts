import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './storage/index.js';
import type { Bridge } from './bridge/create-bridge.js';
import { startDemoSimulator } from './cli/bridge-options.js';
import { createBridgeMetrics, METRICS_CONTENT_TYPE, type BridgeMetrics } from './metrics/bridge-metrics.js';
import { startHttpServer, type RunningHttpServer } from './http/http-server.js';
import { commandSocketPath, startCommandSocket } from './http/command-socket.js';
import type { RunningSimulator } from './simulator/index.js';
import { runCliCommand, type CommandDeps } from './commands/index.js';
import { standbyCommandAnswer } from './commands/status-command.js';
import { RoleSupervisor, type ActivePart, type InstanceRole } from './cli/instance-role.js';
import { settlesWithin, stopsBy } from './cli/settles-within.js';
import { FINAL_STEPS_MS, startSlack } from './cli/start-slack.js';
import { openCore, runCleanups } from './cli/open-core.js';

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
  /** Told when this instance begins waiting as a PostgreSQL standby (its health and readiness answer already). */
  readonly onStandby?: (info: { httpUrl: string }) => void;
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
  /** With PostgreSQL, `standby` after this instance stepped down (its lease lapsed) until it takes over again. */
  readonly role: InstanceRole;
  stop(): Promise<void>;
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
  const closeAll = () => runCleanups(cleanups, deps.log);
  try {
    const target = { baseUrl: config.engage.baseUrl, accountId: config.engage.accountId, token: config.engage.accessToken ?? '' };
    // No standby: a command never waits for another instance's lease. One contact at a time is plenty here.
    const { store, engage, bridge, commandDeps } = await openCore(config, deps, cleanups, target, {
      settings: { maxConcurrentContacts: 1 },
      metrics: createBridgeMetrics({ defaultMetrics: false }),
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

/**
 * The composition root: settings → (demo simulator) → HTTP → store → client → brain → bridge → Slack.
 * Health, readiness and metrics are served from the start, so a PostgreSQL standby waiting for the lease
 * answers its probes; it becomes active without restarting them, and steps back to standby when its lease
 * lapses. Nothing happens at import; everything it starts is stopped by `stop()`, in reverse order.
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
  const stopping = new AbortController();
  deps.stopSignal?.addEventListener('abort', () => stopping.abort(), { once: true });
  const stopAll = async () => {
    stoppingSince = Date.now();
    stopping.abort();
    await runCleanups(cleanups, log);
  };
  try {
    let simulator: RunningSimulator | undefined;
    let engageTarget = { baseUrl: config.engage.baseUrl, accountId: config.engage.accountId ?? '', token: config.engage.accessToken ?? '' };
    if (config.demo) {
      simulator = await startDemoSimulator(deps.demoPort, log);
      cleanups.push(() => simulator!.close());
      // The simulator's module graph is loaded in demo mode only.
      const { DEFAULT_ACCOUNT_ID, DEFAULT_TOKEN } = await import('./simulator/index.js');
      engageTarget = { baseUrl: simulator.url, accountId: DEFAULT_ACCOUNT_ID, token: DEFAULT_TOKEN };
    } else if (!engageTarget.accountId) {
      throw new Error('ENGAGE_ACCOUNT_ID is required when ENGAGE_ACCESS_TOKEN is set');
    }
    const metrics = createBridgeMetrics();
    metrics.mode.set({ mode: config.bridge.mode }, 1);
    if (config.bridge.mode === 'shadow') {
      log.warn('shadow mode (BRIDGE_MODE=shadow): the bridge reads and decides but sends, claims and updates nothing');
    }
    const dataDir = resolve(deps.cwd, config.bridge.dataDir);
    const shared = config.bridge.databaseUrl !== undefined;
    const roles: RoleSupervisor<ActivePart> = new RoleSupervisor<ActivePart>({
      log,
      signal: stopping.signal,
      retryMs: config.bridge.leaseTtlMs,
      onRole: (role) => {
        metrics.activeRole.set(role === 'active' ? 1 : 0);
        log.info({ role }, role === 'active' ? 'active: this instance holds the store' : 'standby: waiting to take over');
      },
      activate: (lost) => activate(lost),
      stepDown: async (part) => {
        if (!(await settlesWithin(part.stop('step-down'), deadlineMs))) log.warn({ deadlineMs }, 'stepping down took too long');
      },
    });
    const webhookSecret = config.bridge.webhookSecret;
    const http = await startHttpServer(
      {
        readiness: () => roles.current?.bridge.readiness() ?? { ready: false, code: shared ? 'standby' : 'not-ready', detail: 'starting' },
        log: log.child({ component: 'http' }),
        metricsText: async () => {
          const active = roles.current;
          if (active) {
            metrics.queueDepth.set(active.bridge.dispatcher.depth());
            metrics.storeWrites.set(active.store.stats().writes);
          }
          return metrics.text();
        },
        metricsContentType: METRICS_CONTENT_TYPE,
        metricsLoopbackOnly: config.bridge.metricsHost === 'loopback',
        limits: config.bridge.httpLimits,
        countRefused: (reason) => metrics.refusedRequests.inc({ port: 'webhook', reason }),
        ...(webhookSecret
          ? {
              webhook: {
                secret: webhookSecret,
                // A standby takes nothing: the service retries, or the active instance's poll finds the mentions.
                accept: (b: unknown) => roles.current?.bridge.acceptWebhook(b) ?? Promise.resolve({ unavailable: 'standby' as const }),
              },
            }
          : {}),
      },
      { host: config.bridge.httpHost, port: config.bridge.httpPort },
    );
    cleanups.push(() => http.close());
    let commandSocket: Awaited<ReturnType<typeof startCommandSocket>> | undefined;
    const openCommandSocket = async () => {
      // With PostgreSQL no store creates the data directory: the socket needs it.
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      commandSocket = await startCommandSocket(
        {
          run: (text: string) => {
            const active = roles.current;
            return active ? runCliCommand(text, active.commandDeps) : Promise.resolve(standbyCommandAnswer(text));
          },
        },
        { path: commandSocketPath(dataDir) },
      );
    };
    cleanups.push(async () => commandSocket?.close());
    if (shared) {
      // Two instances may share a directory: then the standby opens the socket when it takes over.
      await openCommandSocket().catch((err: unknown) =>
        log.info({ err: (err as Error).message }, 'the command socket is taken; this instance opens it when it becomes active'),
      );
    }

    const activate = async (lost: () => void): Promise<ActivePart> => {
      const parts: Array<() => Promise<void>> = [];
      let mode: 'shutdown' | 'step-down' = 'shutdown';
      const stopParts = () => runCleanups(parts, log);
      try {
        let waited = false;
        const core = await openCore(config, deps, parts, engageTarget, {
          metrics,
          // Another instance is active: wait as its standby and take over when it stops renewing the lease.
          standby: {
            signal: stopping.signal,
            onStandby: () => {
              waited = true;
              deps.onStandby?.({ httpUrl: http.url });
            },
          },
          lease: { onRenewed: () => metrics.leaseRenewals.inc(), onLost: lost },
        });
        const { store, engage, bridge } = core;
        const commandDeps: CommandDeps = shared ? { ...core.commandDeps, instanceRole: () => roles.role } : core.commandDeps;
        const countRefused = (reason: string) => metrics.refusedRequests.inc({ port: 'slack', reason });
        const slack = await startSlack(config, { log, now, engageTarget, commandDeps, bridge, store, countRefused }, parts, () =>
          remainingMs(),
        );
        if (!commandSocket) await openCommandSocket();
        const loops = deps.loops ?? true;
        await bridge.start({ poll: loops, schedule: loops });
        // Stopping the bridge first: no new work, in-flight work finished, store flushed — then the rest closes.
        parts.push(() =>
          mode === 'step-down'
            ? bridge.stop()
            : stopsBy(bridge.stop(), remainingMs() - Math.min(FINAL_STEPS_MS, deadlineMs / 2), () => {
                log.warn({ deadlineMs }, 'stopping: API requests still in flight are cut off; their work stays pending for the next start');
                engage.abortInFlight();
              }),
        );
        if (config.bridge.onStop === 'agents') {
          // Runs first on a stop: customers the bot was talking to in the last hour go to people, not to nobody.
          // Not on a step-down: another instance is taking over, and this one may no longer act.
          parts.push(async () => {
            if (mode === 'step-down') return;
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
        if (waited) metrics.leaseTakeovers.inc();
        return {
          store,
          bridge,
          engage,
          commandDeps,
          ...(slack ? { slack } : {}),
          stop: async (how) => {
            mode = how;
            // Deposed: the API calls in flight are cut off now; their effects stay pending for the new active instance.
            if (how === 'step-down') engage.abortInFlight();
            await stopParts();
          },
        };
      } catch (err) {
        await stopParts();
        throw err;
      }
    };

    await roles.begin();
    cleanups.push(async () => {
      await roles.settled();
      await roles.current?.stop('shutdown');
    });
    const latest = () => roles.latest!;
    return {
      get bridge() {
        return latest().bridge;
      },
      get store() {
        return latest().store;
      },
      get commandDeps() {
        return latest().commandDeps;
      },
      get slack() {
        return latest().slack;
      },
      get role() {
        return roles.role;
      },
      metrics,
      http,
      commandSocketPath: commandSocketPath(dataDir),
      engage: { baseUrl: engageTarget.baseUrl, accountId: engageTarget.accountId },
      ...(simulator ? { simulator } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
