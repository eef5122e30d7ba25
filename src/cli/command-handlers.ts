import type { CliIo } from './cli-io.js';
import type { CommandName } from './usage.js';
import type { ParsedArgs } from './run-cli.js';
import { doctorCommand } from './doctor-command.js';
import { startCommand } from './start-command.js';
import { simulatorCommand } from './simulator-command.js';
import { chatCommand } from './chat-command.js';
import { cmdCommand } from './cmd-command.js';
import { initCommand } from './init-command.js';
import { releaseCommand } from './release-command.js';

export type CommandHandler = (args: ParsedArgs, io: CliIo) => Promise<number>;

export const COMMAND_HANDLERS: Record<CommandName, CommandHandler> = {
  start: startCommand,
  simulator: simulatorCommand,
  chat: chatCommand,
  cmd: cmdCommand,
  doctor: doctorCommand,
  init: initCommand,
  release: releaseCommand,
};
