import { COMMAND_NAMES, commandList, findCommand } from './command-registry.js';
import type { ParseResult } from './command-types.js';
import { MAX_COMMAND_LENGTH, renderCommandHelp, renderOverview } from './render-help.js';
import { tokenize } from './tokenize.js';

export { MAX_COMMAND_LENGTH };

/**
 * Pure and fast (Slack calls it inside its 3-second ack): either the command, or what is wrong
 * with the usage of what was meant. Never throws.
 */
export function parseCommand(text: string): ParseResult {
  const trimmed = text.trim();
  const verb = trimmed.split(/\s+/, 1)[0] ?? '';
  const spec = findCommand(verb);
  const usage = spec ? renderCommandHelp(spec) : renderOverview(commandList());
  const fail = (error: string): ParseResult => ({
    ok: false,
    error,
    usage,
    ...(spec && { commandName: spec.name }),
  });
  if (text.length > MAX_COMMAND_LENGTH) {
    return fail(`the command is ${text.length} characters long; the limit is ${MAX_COMMAND_LENGTH}`);
  }
  if (trimmed === '') return { ok: true, command: { name: 'help' } };
  if (!spec) {
    return fail(`"${verb.length > 40 ? `${verb.slice(0, 39)}…` : verb}" is not a command: the commands are ${COMMAND_NAMES.join(', ')}`);
  }
  const tokens = tokenize(trimmed);
  if (!tokens.ok) return fail(tokens.error);
  const parsed = spec.parse(tokens.tokens.slice(1));
  return parsed.ok ? { ok: true, command: parsed.command } : fail(parsed.error);
}
