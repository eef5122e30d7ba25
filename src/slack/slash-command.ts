import type { App } from '@slack/bolt';
import { mrkdwn, truncate } from './block-kit-text.js';
import { failureText } from './failure-text.js';
import { mayRunCommand, refusalText } from './manager-authorization.js';
import type { AuditSink, Clock, CommandRunner, ParsedCommand, SlackActor, SlackLogger } from './ports.js';
import { auditSafely } from './safe-audit.js';
import { FORGET_SUBJECT, isForgetText } from '../commands/index.js';

export interface SlashCommandDeps {
  command: string;
  commands: CommandRunner;
  managerIds: readonly string[];
  audit: AuditSink;
  logger: SlackLogger;
  clock: Clock;
  /** how long help may take before it is answered after the ack instead (Slack allows 3,000 ms in all) */
  ackBudgetMs?: number;
}

const ANSWER_MAX = 3900;
const ECHO_MAX = 80;
const DEFAULT_ACK_BUDGET_MS = 2000;

/**
 * Command answers carry customer and agent text (names, reasons, tags) and are rendered as mrkdwn: every answer
 * is escaped as a whole, since no command answers with Slack markup of its own.
 *
 * The slash command: every request is acked at once with an ephemeral message. Usage errors, refusals
 * and help are answered in the ack itself (no I/O); anything else runs after the ack and answers through
 * `respond()`, so a slow Engage API never costs the 3-second window. The runner audits what it runs;
 * this transport audits what never reaches it (usage errors and its own refusals), in the same shape.
 */
export function registerSlashCommand(app: App, deps: SlashCommandDeps): void {
  const { commands, managerIds, logger, clock } = deps;

  app.command(deps.command, async ({ command, ack, respond }) => {
    const text = typeof command.text === 'string' ? command.text.trim() : '';
    const actor: SlackActor = { id: String(command.user_id ?? ''), transport: 'slack' };
    if (typeof command.user_name === 'string') actor.name = command.user_name;
    // A `forget` names a customer: its text stays out of the audit log, refused or malformed.
    const subject = isForgetText(text) ? FORGET_SUBJECT : text;
    const audit = (action: string, result: 'refused' | 'failed', reason: string): void =>
      auditSafely(deps.audit, logger, { at: clock.now(), actor: `slack:${actor.id}`, action, subject, result, reason });

    const parsed = safeParse(commands, text);
    if (!parsed.ok) {
      audit('malformed', 'failed', `usage error: ${firstLine(parsed.usage)}`);
      await ack({ response_type: 'ephemeral', text: mrkdwn(parsed.usage, ANSWER_MAX) });
      return;
    }
    if (!mayRunCommand(actor, parsed.name, managerIds)) {
      audit(parsed.name, 'refused', 'not a manager');
      logger.info({ actor: actor.id, command: parsed.name }, 'Refused a Slack command from a non-manager');
      await ack({ response_type: 'ephemeral', text: refusalText(actor.id, `run \`${parsed.name}\``) });
      return;
    }
    const pending = safeRun(commands, text, actor, `run \`${parsed.name}\``);
    if (parsed.name === 'help') {
      // help needs no API call: answer it in the ack, unless the executor is unexpectedly slow
      const answer = await withinBudget(pending, deps.ackBudgetMs ?? DEFAULT_ACK_BUDGET_MS);
      if (answer !== undefined) {
        await ack({ response_type: 'ephemeral', text: mrkdwn(answer.text, ANSWER_MAX) });
        return;
      }
    }
    await ack({ response_type: 'ephemeral', text: `Working on \`${mrkdwn(text, ECHO_MAX)}\`…` });
    const answer = await pending;
    try {
      await respond({ response_type: 'ephemeral', text: mrkdwn(answer.text, ANSWER_MAX) });
    } catch (error) {
      logger.warn(
        { command: parsed.name, err: error instanceof Error ? error.message : String(error) },
        'Could not deliver a command answer to Slack',
      );
    }
  });
}

/** The value if it settles within `ms`, else undefined (the work itself goes on). */
async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(text: string): string {
  return truncate(text.split('\n', 1)[0] ?? '', 200);
}

function safeParse(commands: CommandRunner, text: string): ParsedCommand {
  try {
    return commands.parse(text);
  } catch {
    return { ok: false, usage: 'That command could not be read. Try `help` for the list of commands and examples.' };
  }
}

async function safeRun(commands: CommandRunner, text: string, actor: SlackActor, what: string): Promise<{ ok: boolean; text: string }> {
  try {
    return await commands.run(text, actor);
  } catch (error) {
    return { ok: false, text: failureText(what, error) };
  }
}
