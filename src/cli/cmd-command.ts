import { resolve } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { silentLogger } from '../log.js';
import { createEngageClient } from '../engage/index.js';
import { openFileStore, isStoreError } from '../storage/index.js';
import { loadFlowFile, locateFlowFile } from '../settings/flow-file.js';
import { createBridge } from '../bridge/create-bridge.js';
import { createBridgeMetrics } from '../metrics/bridge-metrics.js';
import { runCliCommand } from '../commands/index.js';
import { askCommandSocket } from '../http/ask-command-socket.js';
import { commandSocketPath } from '../http/command-socket.js';
import { bridgeSettingsOf } from '../main.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

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
  // Only through the owner-only socket in the data directory: the HTTP listener takes no commands.
  const socket = commandSocketPath(resolve(io.cwd, config.bridge.dataDir));
  let result = await askCommandSocket(socket, text);
  if (!result) {
    try {
      result = await standalone(config, io, text);
    } catch (err) {
      if (isStoreError(err, 'locked')) {
        result = { exitCode: 1, output: `${err.message} It does not answer on its command socket ${socket}.` };
      } else throw err;
    }
  }
  (result.exitCode === 0 ? io.stdout : io.stderr)(`${result.output}\n`);
  return result.exitCode;
}
