import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Bridge } from '../bridge/create-bridge.js';
import { createCommandRunner, type CommandDeps } from '../commands/index.js';
import type { Store } from '../storage/index.js';
import { settlesWithin } from './settles-within.js';

/** What shutdown keeps for the steps after the bridge has stopped (flushing the store, closing sockets). */
export const FINAL_STEPS_MS = 3000;

/**
 * Starts the Slack app when a bot token is set (undefined otherwise); its stop, which first sends the notices
 * still queued within what is left of the shutdown deadline, goes to `cleanups`.
 */
export async function startSlack(
  config: Config,
  deps: {
    log: Logger;
    now: () => number;
    engageTarget: { baseUrl: string };
    commandDeps: CommandDeps;
    bridge: Bridge;
    store: Store;
    /** Counts a refused Slack request by reason (the metric). */
    countRefused?: (reason: string) => void;
  },
  cleanups: Array<() => Promise<void>>,
  remainingMs: () => number,
): Promise<{ port: number | null } | undefined> {
  if (!config.slack.botToken) return undefined;
  // Bolt and its web framework are a third of the process's start-up memory and time: loaded only with a token.
  const { createSlackApp, originOf } = await import('../slack/index.js');
  const { log, bridge } = deps;
  const slack = createSlackApp({
    botToken: config.slack.botToken,
    ...(config.slack.signingSecret ? { signingSecret: config.slack.signingSecret } : {}),
    ...(config.slack.appToken ? { appToken: config.slack.appToken } : {}),
    ...(config.slack.botId ? { botId: config.slack.botId } : {}),
    ...(config.slack.botUserId ? { botUserId: config.slack.botUserId } : {}),
    ...(config.slack.apiUrl ? { apiUrl: config.slack.apiUrl } : {}),
    ...(config.slack.escalationChannel ? { escalationChannel: config.slack.escalationChannel } : {}),
    permalinkOrigins: [originOf(deps.engageTarget.baseUrl)].filter((o): o is string => o !== undefined),
    port: config.slack.port,
    host: config.slack.host,
    limits: config.bridge.httpLimits,
    maxBodyBytes: config.slack.maxBodyBytes,
    ...(deps.countRefused ? { countRefused: deps.countRefused } : {}),
    managerIds: config.slack.managerIds,
    command: config.slack.command,
    commands: createCommandRunner(deps.commandDeps),
    bridge: bridge.control,
    audit: deps.store,
    logger: log.child({ component: 'slack' }),
    clock: { now: deps.now },
  });
  bridge.setNotifier(slack.notifier);
  const port = await slack.start();
  cleanups.push(async () => {
    if (!(await settlesWithin(slack.flushNotices(), remainingMs() - FINAL_STEPS_MS))) {
      log.warn({}, 'stopping: Slack notices still queued at the shutdown deadline are dropped');
    }
    await slack.stop();
  });
  return port;
}
