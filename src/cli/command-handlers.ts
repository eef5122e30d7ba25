import type { CliIo } from './cli-io.js';
import type { CommandName } from './usage.js';
import type { ParsedArgs } from './run-cli.js';

export type CommandHandler = (args: ParsedArgs, io: CliIo) => Promise<number>;

/**
 * Each command's module is loaded when that command runs: `start` then never pays for the doctor's probes, the
 * chat or the simulator (their module graphs cost start-up time and resident memory for the process's life).
 */
export const COMMAND_HANDLERS: Record<CommandName, CommandHandler> = {
  start: async (args, io) => (await import('./start-command.js')).startCommand(args, io),
  simulator: async (args, io) => (await import('./simulator-command.js')).simulatorCommand(args, io),
  chat: async (args, io) => (await import('./chat-command.js')).chatCommand(args, io),
  cmd: async (args, io) => (await import('./cmd-command.js')).cmdCommand(args, io),
  doctor: async (args, io) => (await import('./doctor-command.js')).doctorCommand(args, io),
  init: async (args, io) => (await import('./init-command.js')).initCommand(args, io),
  release: async (args, io) => (await import('./release-command.js')).releaseCommand(args, io),
  forget: async (args, io) => (await import('./forget-command.js')).forgetCommand(args, io),
  'test-flows': async (args, io) => (await import('./test-flows-command.js')).testFlowsCommand(args, io),
};
