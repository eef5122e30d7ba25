import { actorText } from '../shared/actor.js';
import { COMMANDS } from './command-registry.js';
import type { CommandAnswer, CommandName, CommandOf, CommandSpec, ParsedCommand, RunContext } from './command-types.js';
import { authorize } from './authorize.js';
import { parseCommand } from './parse-command.js';
import type { Actor, AuditEntry, AuditResult, CommandDeps } from './ports.js';

export interface CommandContext {
  readonly actor: Actor;
  readonly deps: CommandDeps;
}

function specOf<N extends CommandName>(command: CommandOf<N>): CommandSpec<N> {
  return COMMANDS[command.name] as unknown as CommandSpec<N>;
}

/**
 * The entry point both transports use: parse, authorise, run, audit. A malformed command gets its
 * usage and touches no port; every command that parses is audited, allowed or refused.
 * Never throws: a failing port becomes a sentence.
 */
export async function runCommand(text: string, ctx: CommandContext): Promise<CommandAnswer> {
  const parsed = parseCommand(text);
  if (!parsed.ok) return { ok: false, text: `${parsed.error}.`, usage: parsed.usage };
  return runParsedCommand(parsed.command, ctx);
}

/**
 * Runs a command already parsed. Slack does not use it: it parses and authorises once inside its ack to
 * answer usage errors and refusals at once, then hands the text to `run`, which parses and authorises again
 * (both are pure and cheap, and the runner stays the one place that audits what it runs).
 */
export async function runParsedCommand(command: ParsedCommand, ctx: CommandContext): Promise<CommandAnswer> {
  const spec = specOf(command);
  const { actor, deps } = ctx;
  let subject: string;
  try {
    subject = spec.subject(command);
  } catch {
    subject = command.name;
  }
  const auth = authorize(actor, command.name, deps.managerIds);
  let answer: CommandAnswer;
  let result: AuditResult;
  if (!auth.allowed) {
    answer = { ok: false, text: auth.reason };
    result = 'refused';
  } else {
    try {
      answer = await spec.run(command, { actor, deps } satisfies RunContext);
    } catch (error) {
      // Executors turn expected failures into answers; this is the net for a bug or a port that broke its contract.
      const message = error instanceof Error ? error.message : String(error);
      answer = { ok: false, text: `The command failed unexpectedly (${message.split('\n', 1)[0]}).` };
    }
    result = answer.ok ? 'ok' : 'failed';
  }
  const entry: AuditEntry = {
    at: deps.now().getTime(),
    actor: actorText(actor),
    action: command.name,
    subject: answer.auditSubject ?? subject,
    result,
    ...(result !== 'ok' && { reason: answer.text.slice(0, 500) }),
  };
  try {
    await deps.audit.audit(entry);
  } catch {
    return { ...answer, text: `${answer.text}\n(Warning: this command could not be written to the audit log.)` };
  }
  return answer;
}
