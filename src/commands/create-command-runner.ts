import { parseCommand } from './parse-command.js';
import type { Actor, CommandDeps } from './ports.js';
import { runCommand } from './run-command.js';

export type RunnerParse = { ok: true; name: string } | { ok: false; usage: string };

/** The shape the Slack transport asks for (`src/slack/ports.ts` CommandRunner), bound to one set of deps. */
export function createCommandRunner(deps: CommandDeps): {
  parse(text: string): RunnerParse;
  run(text: string, actor: Actor): Promise<{ ok: boolean; text: string }>;
} {
  return {
    parse(text) {
      const parsed = parseCommand(text);
      return parsed.ok ? { ok: true, name: parsed.command.name } : { ok: false, usage: `${parsed.error}.\n\n${parsed.usage}` };
    },
    run: (text, actor) => runCommand(text, { actor, deps }),
  };
}
