import type { CliIo } from './cli-io.js';
import type { CommandName } from './usage.js';
import type { ParsedArgs } from './run-cli.js';
import { doctorCommand } from './doctor-command.js';

export type CommandHandler = (args: ParsedArgs, io: CliIo) => Promise<number>;

const notYet = (what: string): CommandHandler => async (_args, io) => {
  io.stderr(`engage-bridge: ${what} is not built yet\n`);
  return 1;
};

export const COMMAND_HANDLERS: Record<CommandName, CommandHandler> = {
  start: notYet('start'),
  simulator: notYet('simulator'),
  chat: notYet('chat'),
  cmd: notYet('cmd'),
  doctor: doctorCommand,
};
