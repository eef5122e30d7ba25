import { actorText } from '../shared/actor.js';
import type { Actor, CommandDeps } from './ports.js';
import { FORGET_SUBJECT, isForgetText } from './forget-command.js';
import { runCommand } from './run-command.js';

export interface CliCommandResult {
  /** 0 done, 1 the command failed (API or bridge), 2 the command was malformed. */
  readonly exitCode: 0 | 1 | 2;
  readonly output: string;
}

/**
 * `engage-bridge cmd "<command>"`: the terminal is a manager; `user` names them in the audit log. The executor
 * audits what it runs; a command it never ran (malformed) is audited here, as the Slack transport does for its
 * own, so every command typed anywhere is in the audit log.
 */
export async function runCliCommand(text: string, deps: CommandDeps, user: string = 'terminal'): Promise<CliCommandResult> {
  const actor: Actor = { id: user, transport: 'cli' };
  const answer = await runCommand(text, { actor, deps });
  if (answer.usage === undefined) return { exitCode: answer.ok ? 0 : 1, output: answer.text };
  const output = `${answer.text}\n\n${answer.usage}`;
  try {
    await deps.audit.audit({
      at: deps.now().getTime(),
      actor: actorText(actor),
      action: 'malformed',
      // A malformed `forget` still names a customer: its text stays out of the audit log.
      subject: isForgetText(text) ? FORGET_SUBJECT : text.slice(0, 500),
      result: 'failed',
      reason: `usage error: ${answer.text.split('\n')[0] ?? ''}`,
    });
  } catch {
    // the answer matters more than its audit line; the store logs its own write failures
  }
  return { exitCode: 2, output };
}
