import type { App, BlockButtonAction, RespondFn } from '@slack/bolt';
import { truncate, LIMITS } from './block-kit-text.js';
import {
  ACTION_MARK_RESOLVED,
  ACTION_OPEN,
  ACTION_RETURN_TO_BOT,
  closeNoticeBlocks,
  decodeButtonValue,
  slackDate,
  type NoticeButtonValue,
} from './escalation-blocks.js';
import type { EscalationNotifier } from './escalation-notifier.js';
import { failureText } from './failure-text.js';
import { mayUseNoticeButtons, refusalText } from './manager-authorization.js';
import type { AuditSink, BridgeActions, Clock, SlackActor, SlackLogger } from './ports.js';
import { auditSafely } from './safe-audit.js';

export interface NoticeButtonDeps {
  bridge: BridgeActions;
  managerIds: readonly string[];
  audit: AuditSink;
  logger: SlackLogger;
  clock: Clock;
  notifier: EscalationNotifier;
}

interface ButtonSpec {
  actionId: string;
  /** audit action and the verb phrases of the answers */
  auditAction: string;
  what: string;
  done: string;
  perform(bridge: BridgeActions, value: NoticeButtonValue, actor: SlackActor): Promise<void>;
}

const BUTTONS: readonly ButtonSpec[] = [
  {
    actionId: ACTION_RETURN_TO_BOT,
    auditAction: 'escalation.return_to_bot',
    what: 'return the conversation to the bot',
    done: 'returned the conversation to the bot',
    perform: (bridge, value, actor) => bridge.returnToBot(value.contactKey, actor),
  },
  {
    actionId: ACTION_MARK_RESOLVED,
    auditAction: 'escalation.mark_resolved',
    what: 'mark the escalation resolved',
    done: 'marked the escalation resolved',
    perform: (bridge, value, actor) => bridge.markResolved(value.escalationId, actor),
  },
];

/** The notice buttons: acked at once, authorised like commands, audited, then the notice is closed. */
export function registerNoticeButtons(app: App, deps: NoticeButtonDeps): void {
  // a URL button still sends an action that must be acked, or Slack shows an error to the clicker
  app.action({ type: 'block_actions', action_id: ACTION_OPEN }, async ({ ack }) => {
    await ack();
  });
  for (const spec of BUTTONS) {
    app.action<BlockButtonAction>({ type: 'block_actions', action_id: spec.actionId }, async ({ ack, body, action, respond }) => {
      await ack();
      await handleClick(spec, deps, body, action.value, respond);
    });
  }
}

async function handleClick(
  spec: ButtonSpec,
  deps: NoticeButtonDeps,
  body: BlockButtonAction,
  rawValue: unknown,
  respond: RespondFn,
): Promise<void> {
  const { logger, clock } = deps;
  const actor: SlackActor = { id: body.user.id, transport: 'slack' };
  const value = decodeButtonValue(rawValue);
  const audit = (result: 'ok' | 'refused' | 'failed', reason?: string): void =>
    auditSafely(deps.audit, logger, {
      at: clock.now(),
      actor: `slack:${actor.id}`,
      action: spec.auditAction,
      subject: value === undefined ? 'unreadable button' : `escalation ${value.escalationId} (${value.contactKey})`,
      result,
      ...(reason === undefined ? {} : { reason }),
    });
  const tell = async (text: string): Promise<void> => {
    try {
      await respond({ response_type: 'ephemeral', replace_original: false, text });
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Could not answer a Slack button click');
    }
  };

  if (value === undefined) {
    audit('failed', 'unreadable button value');
    await tell('This button could not be read (it may come from an older version of the bridge). Use `/engage escalations` instead.');
    return;
  }
  if (!mayUseNoticeButtons(actor, deps.managerIds)) {
    audit('refused', 'not a manager');
    await tell(refusalText(actor.id, spec.what));
    return;
  }
  try {
    await spec.perform(deps.bridge, value, actor);
  } catch (error) {
    const sentence = failureText(spec.what, error);
    audit('failed', sentence);
    await tell(sentence);
    return;
  }
  audit('ok');
  deps.notifier.forget(value.escalationId);
  await closeNotice(deps, body, respond, `<@${actor.id}> ${spec.done} · ${slackDate(clock.now())}`);
}

/** Replaces the notice through response_url (no Web API rate limit); falls back to a queued chat.update. */
async function closeNotice(deps: NoticeButtonDeps, body: BlockButtonAction, respond: RespondFn, outcome: string): Promise<void> {
  const blocks = closeNoticeBlocks(body.message?.blocks ?? [], outcome);
  const text = truncate(`${outcome.replace(/<!date\^\d+\^[^|]*\|([^>]*)>/, '$1')}`, LIMITS.fallbackText);
  try {
    await respond({ replace_original: true, text, blocks });
    return;
  } catch (error) {
    deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Could not replace the notice via response_url');
  }
  const channel = body.channel?.id;
  const ts = body.message?.ts;
  if (channel === undefined || ts === undefined) return;
  deps.notifier.updateMessage(channel, ts, text, blocks);
}
