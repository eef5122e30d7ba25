import type { CliIo } from './cli-io.js';
import { cmdCommand } from './cmd-command.js';
import type { ParsedArgs } from './run-cli.js';

/**
 * `engage-bridge release [--since 60m] [--dry-run]`: the manager command `release`, through the running bridge
 * when there is one, else on the store and the API directly (as `cmd` does), for the day the bridge cannot come back.
 */
export function releaseCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const since = typeof args.values.since === 'string' ? ` --since ${args.values.since}` : '';
  const dryRun = args.values['dry-run'] === true ? ' --dry-run' : '';
  return cmdCommand({ values: { config: args.values.config }, positionals: [`release${since}${dryRun}`] }, io);
}
