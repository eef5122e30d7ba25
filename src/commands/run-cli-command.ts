import type { Actor, CommandDeps } from './ports.js';
import { runCommand } from './run-command.js';

export interface CliCommandResult {
  /** 0 done, 1 the command failed (API or bridge), 2 the command was malformed. */
  readonly exitCode: 0 | 1 | 2;
  readonly output: string;
}

/** `engage-bridge cmd "<command>"`: the terminal is a manager; `user` names them in the audit log. */
export async function runCliCommand(text: string, deps: CommandDeps, user: string = 'terminal'): Promise<CliCommandResult> {
  const actor: Actor = { id: user, transport: 'cli' };
  const answer = await runCommand(text, { actor, deps });
  if (answer.usage !== undefined) return { exitCode: 2, output: `${answer.text}\n\n${answer.usage}` };
  return { exitCode: answer.ok ? 0 : 1, output: answer.text };
}
