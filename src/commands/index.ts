export { authorize, type Authorization } from './authorize.js';
export { COMMANDS, COMMAND_NAMES } from './command-registry.js';
export type { CommandAnswer, CommandName, ParseResult, ParsedCommand } from './command-types.js';
export { createCommandRunner } from './create-command-runner.js';
export { MAX_COMMAND_LENGTH, parseCommand } from './parse-command.js';
export type * from './ports.js';
export { contactKeyText } from './ports.js';
export { runCommand, runParsedCommand, type CommandContext } from './run-command.js';
export { runCliCommand, type CliCommandResult } from './run-cli-command.js';
