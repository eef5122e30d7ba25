// What every way of running the bridge opens (flows, store, client, bridge, the commands' dependencies), and how it
// closes them again: the shared part of `start` and `startCommandService` (src/main.ts).
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createEngageClient, RateLimitRegistry } from '../engage/index.js';
import { openSqliteStore, type Store } from '../storage/index.js';
import type { LeaseEvents } from '../storage/postgres/lease.js';
import { describeFlowFile, loadFlowFile, locateFlowFile } from '../settings/flow-file.js';
import { databaseTlsWarning } from '../settings/database-tls.js';
import { createBridge } from '../bridge/create-bridge.js';
import type { BridgeSettings } from '../bridge/bridge-context.js';
import { withMappedHandover } from '../bridge/ownership/mapped-handover.js';
import { loadUnderstanding } from '../bridge/understanding-loader.js';
import type { BridgeMetrics } from '../metrics/bridge-metrics.js';
import type { CommandDeps } from '../commands/index.js';
import { contactPseudonym, pseudonymKeyOf } from '../settings/pseudonymise.js';
import { bridgeClientConcurrency, bridgeSettingsOf, bucketOf, nluClientOf } from './bridge-options.js';

/** What every way of running the bridge shares: flows, store, client, bridge, and the commands' dependencies. */
export async function openCore(
  config: Config,
  deps: { readonly log: Logger; readonly cwd: string; readonly now?: () => number },
  cleanups: Array<() => Promise<void>>,
  engageTarget: { baseUrl: string; accountId: string; token: string },
  options: {
    standby?: { signal?: AbortSignal; onStandby?: () => void };
    lease?: LeaseEvents;
    settings?: Partial<BridgeSettings>;
    /** Made by the caller: the running bridge keeps one across take-overs; a command needs no process metrics. */
    metrics: BridgeMetrics;
  },
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
    ...(config.bridge.commitWindowMs === undefined ? {} : { writeIntervalMs: config.bridge.commitWindowMs }),
    retention: {
      seenIdsDays: config.bridge.seenRetentionDays,
      auditDays: config.bridge.auditRetentionDays,
      archiveAfterDays: config.bridge.archiveAfterDays,
      transcriptDays: config.bridge.transcriptRetentionDays,
      archiveDays: config.bridge.archiveRetentionDays,
      surveyDays: config.bridge.surveyRetentionDays,
    },
  };
  const bridgeLog = log.child({ component: 'bridge' });
  const nlu = config.nlu.url ? nluClientOf(config, now, log) : undefined;
  // A running bridge trains the NLU before it opens the store, so a standby trains while it waits for the lease and
  // the training (synchronous: a second or two on a busy machine) never stalls an instance that holds the lease; it
  // lapsed under a 2 s lease. A command trains only if it meets a customer message (`createBridge`'s default).
  const understanding = options.standby ? loadUnderstanding(flows, nlu, bridgeLog) : undefined;
  await understanding?.();
  const tlsWarning = config.bridge.databaseUrl ? databaseTlsWarning(config.bridge.databaseUrl) : undefined;
  if (tlsWarning !== undefined) log.warn({}, tlsWarning);
  // PostgreSQL's module graph (pg) is loaded only when it is configured.
  const store: Store = config.bridge.databaseUrl
    ? await (await import('../storage/postgres/open-postgres-store.js')).openPostgresStore({
        ...storeOptions,
        databaseUrl: config.bridge.databaseUrl,
        leaseTtlMs: config.bridge.leaseTtlMs,
        ...(options.standby ? { standby: options.standby } : {}),
        ...(options.lease ? { lease: options.lease } : {}),
      })
    : await openSqliteStore({ ...storeOptions, dataDir });
  cleanups.push(() => store.close());
  const { metrics } = options;
  const engage = createEngageClient({
    baseUrl: engageTarget.baseUrl,
    accountId: engageTarget.accountId,
    accessToken: engageTarget.token,
    version: config.engage.apiVersion,
    handoverServices: Object.values(config.engage.channelServices).map((c) => c.handoverService),
    logger: log.child({ component: 'engage' }),
    timeouts: { requestMs: config.engage.requestTimeoutMs },
    rateLimit: {
      registry: new RateLimitRegistry(bucketOf(config.engage.rateLimitPerHour)),
      concurrency: bridgeClientConcurrency(config.bridge.maxConcurrentContacts),
    },
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
    log: bridgeLog,
    metrics,
    now,
    settings: { ...bridgeSettingsOf(config), ...options.settings },
    pseudonym: contactPseudonym(pseudonymKeyOf(config)),
    ...(nlu ? { nlu } : {}),
    ...(understanding ? { understanding } : {}),
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

/** Runs clean-ups last in, first out; one that fails is logged and the others still run. */
export async function runCleanups(list: Array<() => Promise<void>>, log: Logger): Promise<void> {
  for (const c of list.reverse()) {
    try {
      await c();
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'error while stopping');
    }
  }
}
