import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../config.js';
import { UsageError, type CliIo } from './cli-io.js';
import { COMMAND_USAGE, commandHelp, mainHelp, type CommandName } from './usage.js';
import { COMMAND_HANDLERS } from './command-handlers.js';

const OPTIONS: Record<CommandName, NonNullable<ParseArgsConfig['options']>> = {
  start: { config: { type: 'string' }, shadow: { type: 'boolean' } },
  simulator: { port: { type: 'string' }, host: { type: 'string' }, seed: { type: 'string' }, realism: { type: 'string' } },
  chat: { channel: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, config: { type: 'string' } },
  cmd: { config: { type: 'string' } },
  doctor: { offline: { type: 'boolean' }, live: { type: 'boolean' }, 'test-contact': { type: 'string' }, config: { type: 'string' } },
  init: {},
  release: { since: { type: 'string' }, 'dry-run': { type: 'boolean' }, config: { type: 'string' } },
  forget: { 'dry-run': { type: 'boolean' }, config: { type: 'string' } },
  'test-flows': {
    flows: { type: 'string' },
    json: { type: 'boolean' },
    'keywords-only': { type: 'boolean' },
    config: { type: 'string' },
  },
};
const POSITIONALS: Record<CommandName, { min: number; max: number }> = {
  start: { min: 0, max: 0 },
  simulator: { min: 0, max: 0 },
  chat: { min: 0, max: 0 },
  cmd: { min: 1, max: 1 },
  doctor: { min: 0, max: 0 },
  init: { min: 0, max: 1 },
  release: { min: 0, max: 0 },
  forget: { min: 1, max: 1 },
  'test-flows': { min: 0, max: 1 },
};

export type ParsedArgs = { values: Record<string, string | boolean | undefined>; positionals: string[] };

function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_USAGE, name);
}

/** Runs the command line; returns the exit status (0 success, 1 runtime failure, 2 usage error). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(mainHelp());
    return first === undefined ? 2 : 0;
  }
  if (!isCommand(first)) {
    io.stderr(`engage-bridge: unknown command '${first}'\n\n${mainHelp()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(commandHelp(first));
    return 0;
  }
  let args: ParsedArgs;
  try {
    const parsed = parseArgs({ args: [...rest], options: OPTIONS[first], allowPositionals: true, strict: true });
    args = { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
    const bounds = POSITIONALS[first];
    if (args.positionals.length < bounds.min) throw new Error('missing argument');
    if (args.positionals.length > bounds.max) throw new Error(`unexpected argument '${args.positionals[bounds.max]}'`);
  } catch (err) {
    io.stderr(`engage-bridge ${first}: ${(err as Error).message}\n\n${commandHelp(first)}`);
    return 2;
  }
  try {
    return await COMMAND_HANDLERS[first](args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`engage-bridge ${first}: ${err.message}\n\n${err.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.stderr(`engage-bridge: ${err.message}\n`);
      return 1;
    }
    io.stderr(`engage-bridge ${first}: ${(err as Error).message}\n`);
    return 1;
  }
}
