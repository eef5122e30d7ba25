import type { CommandName, CommandSpec } from './command-types.js';

/** Longer commands are refused before parsing: no field needs more, and it bounds the work. */
export const MAX_COMMAND_LENGTH = 2000;

type AnySpec = CommandSpec<CommandName>;

/** The overview: every command's usage and what it does, in registry order. */
export function renderOverview(specs: readonly AnySpec[]): string {
  const lines = specs.flatMap((s) => s.usage.map((u, i) => (i === 0 ? `• ${u} — ${s.summary}` : `• ${u}`)));
  return [
    'Commands:',
    ...lines,
    `Quote values with spaces ("Acme NV"); a command is at most ${MAX_COMMAND_LENGTH} characters.`,
    'Write "help <command>" for details and examples.',
  ].join('\n');
}

/** One command: usage, what it does, details and examples. */
export function renderCommandHelp(spec: AnySpec): string {
  return [
    `Usage: ${spec.usage.join('  |  ')}`,
    `${spec.summary[0]?.toUpperCase() ?? ''}${spec.summary.slice(1)}.`,
    ...(spec.details ?? []),
    `Examples: ${spec.examples.join('  ·  ')}`,
  ].join('\n');
}
