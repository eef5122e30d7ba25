import { resolve } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { silentLogger } from '../log.js';
import { createEngageClient } from '../engage/index.js';
import { openFileStore, isStoreError } from '../storage/index.js';
import { loadFlowFile, locateFlowFile } from '../settings/flow-file.js';
import { createBridge } from '../bridge/create-bridge.js';
import { createBridgeMetrics } from '../metrics/bridge-metrics.js';
import { runCliCommand } from '../commands/index.js';
import { bridgeSettingsOf } from '../main.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

/** Asks the running bridge on this machine; undefined when none answers. */
async function viaRunningBridge(config: Config, text: string): Promise<{ exitCode: number; output: string } | undefined> {
  if (config.bridge.httpPort === 0) return undefined;
  try {
    const res = await fetch(`http://127.0.0.1:${config.bridge.httpPort}/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(60_000),
    });
    if (res.status === 404) return undefined;
    const body = (await res.json()) as { exitCode?: number; output?: string; error?: string };
    if (typeof body.exitCode !== 'number') return { exitCode: 1, output: body.error ?? `the bridge answered ${res.status}` };
    return { exitCode: body.exitCode, output: body.output ?? '' };
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return undefined;
    throw err;
  }
}

/** No bridge is running: open its store and client here, run the command, close again. */
async function standalone(config: Config, io: CliIo, text: string): Promise<{ exitCode: number; output: string }> {
  if (config.demo) {
    return { exitCode: 1, output: 'No bridge is running here and no ENGAGE_ACCESS_TOKEN is set: start the demo with `npm start` first.' };
  }
  const store = await openFileStore({ dataDir: resolve(io.cwd, config.bridge.dataDir) });
  const engage = createEngageClient({
    baseUrl: config.engage.baseUrl,
    accountId: config.engage.accountId ?? '',
    accessToken: config.engage.accessToken ?? '',
    version: config.engage.apiVersion,
    handoverServices: Object.values(config.engage.channelServices).map((c) => c.handoverService),
    timeouts: { requestMs: config.engage.requestTimeoutMs },
  });
  try {
    const flows = await loadFlowFile(locateFlowFile(config.bridge.flowFile, io.cwd).path);
    const bridge = await createBridge({
      store,
      engage,
      flows,
      log: silentLogger(),
      metrics: createBridgeMetrics({ defaultMetrics: false }),
      // One contact at a time is plenty for a single command.
      settings: { ...bridgeSettingsOf(config), maxConcurrentContacts: 1 },
    });
    return await runCliCommand(text, {
      engage,
      bridge: bridge.control,
      audit: store,
      managerIds: config.slack.managerIds,
      now: () => new Date(),
    });
  } finally {
    await engage.close();
    await store.close();
  }
}

/** `engage-bridge cmd "<command>"`: the same executors as Slack, through the running bridge when there is one. */
export async function cmdCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = loadConfig({ cwd: io.cwd, env: io.env, configFile: args.values.config as string | undefined });
  const text = args.positionals[0] ?? '';
  let result = await viaRunningBridge(config, text);
  if (!result) {
    try {
      result = await standalone(config, io, text);
    } catch (err) {
      if (isStoreError(err, 'locked')) {
        result = { exitCode: 1, output: `${err.message} It does not answer on port ${config.bridge.httpPort}: check BRIDGE_HTTP_PORT.` };
      } else throw err;
    }
  }
  (result.exitCode === 0 ? io.stdout : io.stderr)(`${result.output}\n`);
  return result.exitCode;
}
