import { loadConfig, redactedConfig, type Config } from '../config.js';
import { crashReporter, createLogger, type LoggerOptions, refreshLogSecrets } from '../log.js';
import { start } from '../main.js';
import { pseudonymKeyOf } from '../settings/pseudonymise.js';
import { settlesWithin } from './settles-within.js';
import { howToRun, shippedDoc } from './how-to-run.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

/** The process logger's options from the settings: level, secrets to scrub, and customer ids pseudonymised unless `LOG_CUSTOMER_IDS=clear`. */
export function bridgeLogOptions(config: Config): LoggerOptions {
  return {
    level: config.logLevel,
    secrets: config.secrets,
    ...(config.logCustomerIds === 'clear' ? {} : { pseudonymKey: pseudonymKeyOf(config) }),
  };
}

/** `engage-bridge start`: runs until SIGINT/SIGTERM, then stops cleanly with nothing lost. */
export async function startCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  // `--shadow` is BRIDGE_MODE=shadow for this run (it wins over the settings, reloads included).
  const env = args.values.shadow === true ? { ...io.env, BRIDGE_MODE: 'shadow' } : io.env;
  const config = loadConfig({ cwd: io.cwd, env, configFile: args.values.config as string | undefined });
  const log = createLogger(bridgeLogOptions(config));
  const exit = io.exit;
  const stopCrashWatch = exit ? io.onCrash?.(crashReporter(log, exit)) : undefined;
  log.debug({ config: redactedConfig(config) }, 'settings');
  // A PostgreSQL standby waits inside `start` for the lease: a stop request must end that wait.
  const stopWaiting = new AbortController();
  void io.stopSignal.then(() => stopWaiting.abort());
  const running = await start(config, {
    log,
    cwd: io.cwd,
    stopSignal: stopWaiting.signal,
    onStandby: ({ httpUrl }) =>
      io.stdout(`engage-bridge is a standby: another instance is active. Health: ${httpUrl}  (/healthz /readyz /metrics)\n`),
  });
  const lines = [
    `engage-bridge is running${config.bridge.mode === 'shadow' ? ' in SHADOW mode (it sends, claims and updates nothing; `cmd "shadow"` shows what it would have done)' : ''}${config.demo ? ' (demo: no ENGAGE_ACCESS_TOKEN, so an embedded simulator plays the Engage API)' : ''}.`,
    `  health, metrics${config.bridge.webhookSecret ? ', webhook' : ''}: ${running.http.url}  (/healthz /readyz /metrics)`,
    `  Engage API: ${running.engage.baseUrl} (account ${running.engage.accountId})`,
    `  manager commands: engage-bridge cmd "..." as this user (socket ${running.commandSocketPath})`,
  ];
  if (running.slack) lines.push(`  Slack: ${running.slack.port === null ? 'Socket Mode' : `HTTP receiver on port ${running.slack.port}`}`);
  if (running.simulator) {
    const run = howToRun(io.cwd);
    lines.push(
      '',
      'Talk to the bot as a customer, in another terminal:',
      `  ENGAGE_BASE_URL=${running.simulator.url} ${run} chat --channel whatsapp --name Ann`,
      'Act as the manager:',
      `  ${run} cmd "status"      (in this directory: it asks the running bridge)`,
      `Simulator control API: ${running.simulator.url}/_sim/  (see ${shippedDoc('simulator.md')})`,
    );
  }
  lines.push('', 'Stop with Ctrl-C.');
  io.stdout(`${lines.join('\n')}\n`);
  // SIGHUP reloads the settings (e.g. a new ENGAGE_ACCESS_TOKEN in .env after the user re-authorised) and
  // restarts the bridge in place; nothing is lost, the store carries everything over.
  let current = running;
  let currentConfig = config;
  let reloading: Promise<void> = Promise.resolve();
  const stopListening = io.onReload?.(() => {
    reloading = reloading
      .then(async () => {
        let next: ReturnType<typeof loadConfig>;
        try {
          next = loadConfig({ cwd: io.cwd, env, configFile: args.values.config as string | undefined });
        } catch (err) {
          log.error({ err: (err as Error).message }, 'reload refused: the settings are invalid; the bridge keeps running as it was');
          return;
        }
        refreshLogSecrets(log, next.secrets);
        log.info({}, 'reloading the settings: restarting the bridge');
        await current.stop();
        try {
          current = await start(next, { log, cwd: io.cwd });
          currentConfig = next;
          log.info({}, 'reloaded');
        } catch (err) {
          log.error({ err: (err as Error).message }, 'the new settings do not start; going back to the previous ones');
          current = await start(currentConfig, { log, cwd: io.cwd });
        }
      })
      .catch((err: unknown) => log.error({ err: (err as Error).message }, 'reload failed'));
  });
  const signal = await io.stopSignal;
  stopListening?.();
  await reloading;
  log.info({ signal }, 'stopping: no new work, finishing what is in flight, flushing the store');
  // The bridge keeps to its own deadline; this is the backstop should anything else hang.
  const deadlineMs = currentConfig.bridge.shutdownDeadlineMs;
  if (!(await settlesWithin(current.stop(), deadlineMs + 500))) {
    log.error({ deadlineMs }, 'did not stop within BRIDGE_SHUTDOWN_DEADLINE_MS: exiting anyway');
    return 1;
  }
  log.info({}, 'stopped');
  stopCrashWatch?.();
  return 0;
}
