import type { CliIo } from './cli-io.js';
import { cmdCommand } from './cmd-command.js';
import type { ParsedArgs } from './run-cli.js';

/**
 * `engage-bridge forget <service>/<service_id> [--dry-run]`: the manager command `forget`, through the running bridge
 * on its command socket when there is one (one writer on the store), else on the store it opens itself (as `cmd` does).
 */
export function forgetCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const contact = args.positionals[0] ?? '';
  const dryRun = args.values['dry-run'] === true ? ' --dry-run' : '';
  return cmdCommand({ values: { config: args.values.config }, positionals: [`forget ${contact}${dryRun}`] }, io);
}
