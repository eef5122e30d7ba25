import { SETTINGS } from '../settings/settings-table.js';

/** Usage of each command: the one source for `--help` and for the usage printed after a mistake. */
export const COMMAND_USAGE = {
  start: {
    synopsis: 'engage-bridge start [--shadow] [--config FILE]',
    summary: 'Run the bridge (without ENGAGE_ACCESS_TOKEN: the demo on the embedded simulator).',
  },
  simulator: {
    synopsis: "engage-bridge simulator [--port N] [--host H] [--seed FILE] [--realism '{JSON}']",
    summary: 'Run only the simulator of the Engage API (default 127.0.0.1:4010).',
  },
  chat: {
    synopsis: 'engage-bridge chat [--channel whatsapp] [--name Ann] [--id ID]',
    summary: 'Chat as an end customer against a simulator (ENGAGE_BASE_URL).',
  },
  cmd: {
    synopsis: 'engage-bridge cmd "<manager command>" [--config FILE]',
    summary: 'Run one manager command (as /engage takes it) and print the answer.',
  },
  release: {
    synopsis: 'engage-bridge release [--since 60m] [--dry-run] [--config FILE]',
    summary: 'Hand to people every contact the bot holds with recent customer activity (for when the bridge cannot run).',
  },
  forget: {
    synopsis: 'engage-bridge forget <service>/<service_id> [--dry-run] [--config FILE]',
    summary:
      "Remove everything the bridge keeps about one customer (the manager command forget); --dry-run only counts. The service's own data is deleted in the Engage account.",
  },
  init: {
    synopsis: 'engage-bridge init [DIR]',
    summary: 'Write an editable config/flows.yaml and a .env template in DIR (default: here); never overwrites.',
  },
  doctor: {
    synopsis: 'engage-bridge doctor [--offline] [--live [--test-contact SERVICE/ID]] [--config FILE]',
    summary:
      'Check the configuration and, unless --offline, probe the API; --live also checks each guess about the service a read can show; --test-contact also makes one round trip (claim, reply, hand over, hand back) on that contact only. Exit 1 on any failure.',
  },
  'test-flows': {
    synopsis: 'engage-bridge test-flows [FILE] [--flows FILE] [--json] [--keywords-only] [--config FILE]',
    summary:
      'Run conversation tests (default: flows.test.yaml beside the flows) through the bot; scores, failures; exit 1 below a threshold.',
  },
} as const;

export type CommandName = keyof typeof COMMAND_USAGE;

export function commandHelp(name: CommandName): string {
  const u = COMMAND_USAGE[name];
  return `Usage: ${u.synopsis}\n\n${u.summary}\n`;
}

export function mainHelp(): string {
  const commands = Object.entries(COMMAND_USAGE)
    .map(([name, u]) => `  ${name.padEnd(11)} ${u.summary}`)
    .join('\n');
  const settings = SETTINGS.map((s) => `  ${s.name}`).join('\n');
  return [
    'Usage: engage-bridge <command> [options]',
    '',
    'Commands:',
    commands,
    '',
    "Run `engage-bridge <command> --help` for a command's options.",
    'Settings come from the environment, a .env file or a settings file (see README):',
    settings,
    '',
    'Exit status: 0 success, 1 runtime failure, 2 usage error.',
    '',
  ].join('\n');
}
