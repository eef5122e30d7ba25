import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, ConfigError, type Config } from '../config.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

function check(name: string, fn: () => string): Check {
  try {
    return { name, ok: true, detail: fn() };
  } catch (err) {
    return { name, ok: false, detail: (err as Error).message };
  }
}

/** The checks that need no network: settings, data directory, flow file. */
export function offlineChecks(config: Config, cwd: string): Check[] {
  return [
    check('data directory is writable', () => {
      const dir = resolve(cwd, config.bridge.dataDir);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      return dir;
    }),
    check('flow file exists', () => {
      const file = resolve(cwd, config.bridge.flowFile);
      if (!existsSync(file)) throw new Error(`${file} does not exist (BRIDGE_FLOW_FILE)`);
      return file;
    }),
    check('Slack settings are complete', () => {
      const s = config.slack;
      if (!s.botToken) return 'Slack disabled (no SLACK_BOT_TOKEN)';
      if (!s.appToken && !s.signingSecret) throw new Error('HTTP mode needs SLACK_SIGNING_SECRET (or set SLACK_APP_TOKEN)');
      if (Boolean(s.botId) !== Boolean(s.botUserId)) throw new Error('set both SLACK_BOT_ID and SLACK_BOT_USER_ID, or neither');
      if (s.managerIds.length === 0) return 'enabled, but SLACK_MANAGER_IDS is empty: nobody may run commands';
      return s.appToken ? 'Socket Mode' : `HTTP mode on port ${s.port}`;
    }),
  ];
}

export function renderChecklist(checks: readonly Check[]): string {
  return checks.map((c) => `${c.ok ? '✔' : '✘'} ${c.name}${c.detail ? ` — ${c.detail}` : ''}`).join('\n') + '\n';
}

export async function doctorCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  let config: Config;
  try {
    config = loadConfig({ cwd: io.cwd, env: io.env, configFile: args.values.config as string | undefined });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stdout(renderChecklist([{ name: 'settings are valid', ok: false, detail: err.problems.join('; ') }]));
    return 1;
  }
  const checks: Check[] = [{ name: 'settings are valid', ok: true, detail: config.demo ? 'demo mode (no ENGAGE_ACCESS_TOKEN)' : '' }];
  checks.push(...offlineChecks(config, io.cwd));
  io.stdout(renderChecklist(checks));
  return checks.every((c) => c.ok) ? 0 : 1;
}
