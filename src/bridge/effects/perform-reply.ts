import { InvalidParameterError } from '../../engage/index.js';
import type { Effect } from '../../storage/index.js';
import { splitKey } from '../contact-key.js';
import { RecheckIncompleteError } from './effect-errors.js';
import { knownBotUser, learnBotUser } from '../ownership/own-echo.js';
import { findPublishedReply } from './reply-check.js';
import type { ReplyService } from './reply-services.js';
import { endRecordedBy, type PayloadOf, type PerformerDeps } from './performer.js';
import { serviceWindowClosed } from '../service-time.js';

/** What a performed reply leaves in its effect: the publisher mention is how the reply is found again. */
export interface ReplyResult {
  readonly publisherMentionId: string | null;
  readonly messageIds?: readonly string[];
  readonly recovered?: boolean;
}

/**
 * Publishes one bot reply, from the services GET publisher/add lists. `suspect`: the reply may already be out
 * (a crash or an unanswered call): it is looked for by the customer's mention id first, within bounds.
 */
export async function performReply(
  deps: PerformerDeps,
  effect: Effect,
  p: PayloadOf<'reply'>,
  suspect: boolean,
): Promise<ReplyResult | { skipped: string }> {
  const key = effect.contactKey;
  // One read serves the owner check and the reply below (each read parses the stored record afresh). A confirmation
  // the check makes changes only the owner fields, which nothing below reads.
  const conv = await deps.store.getConversation(key);
  if (!(await deps.ownership.botMaySpeak(key, { conversation: conv }))) {
    deps.log.info({ contact: key, effect: effect.key }, 'reply not sent: the bot does not own the contact now');
    return { skipped: 'the bot does not own the contact' };
  }
  if (suspect) {
    // The reply can only have been published after the customer's mention was added, on the service's own clock:
    // its `date.added` (kept on the transcript line) starts the search; our clock only when the line is gone.
    const line = conv?.transcript.find(
      (l) => l.from === 'customer' && l.mentionId === p.target.mentionId && (l.topicId === undefined || l.topicId === p.target.topicId),
    );
    // A reply its last attempt published is in a listing begun once the retry was due (as when each re-check read
    // its own): a send that timed out may still land a little after its failure was recorded.
    const notBeforeMs = Math.max(effect.updatedAt, effect.retryAt ?? 0);
    const search = line ? { serviceFromMs: line.at, notBeforeMs } : { sinceMs: effect.createdAt };
    // Only the bot's own published reply counts as this one: an agent may have answered the same mention.
    const botUserId = (await knownBotUser(deps))?.id;
    const check = await findPublishedReply(
      deps.engage,
      { mentionId: p.target.mentionId, topicId: p.target.topicId, text: p.text, ...(botUserId ? { botUserId } : {}), ...search },
      deps.now,
      (item) => {
        deps.metrics.skippedItems.inc({ source: 'reply-check', reason: 'invalid-publisher-mention' });
        deps.log.warn(
          { contact: key, effect: effect.key, publisherMention: item.id, problem: item.problem },
          'skipped a listed reply that cannot be read',
        );
      },
    );
    if (check.outcome === 'published') {
      deps.log.info(
        { contact: key, effect: effect.key, publisherMention: check.publisherMentionId },
        'reply was already published: not sending it again',
      );
      return { publisherMentionId: check.publisherMentionId, recovered: true };
    }
    if (check.outcome === 'unknown') throw new RecheckIncompleteError(check.why);
  }
  if (conv && serviceWindowClosed(deps, conv)) {
    // Decided while the window was open, sent after it closed (retries, a delayed survey): no free-form message now.
    // (A reply that went out before a crash was found above and is recorded as sent.)
    deps.log.warn({ contact: key, effect: effect.key }, "reply not sent: the channel's customer-service window has closed");
    return { skipped: "the channel's customer-service window is closed" };
  }
  const { channel } = splitKey(key);
  const services = deps.replyServices;
  const send = (from: readonly ReplyService[]) =>
    deps.engage.publisher.add({
      type: 'reply',
      services: from,
      message: p.text,
      status: '',
      topicId: p.target.topicId,
      mentionId: p.target.mentionId,
      ...(p.cannedResponseId ? { cannedResponseId: p.cannedResponseId } : {}),
    });
  const from = await services.forReply(channel, p.target);
  let result: Awaited<ReturnType<typeof send>>;
  try {
    result = await send(from);
  } catch (err) {
    if (!(err instanceof InvalidParameterError)) throw err;
    // A refusal may mean the cached profile is gone: ask again, and try once more only if the answer changed.
    services.forget(channel, p.target.topicId, p.target.mentionId);
    const fresh = await services.forReply(channel, p.target);
    if (sameServices(fresh, from)) throw err;
    deps.log.info({ contact: key, effect: effect.key }, 'reply refused: sending again from the services Engage lists now');
    result = await send(fresh);
  }
  if (result.unread !== undefined && !unreadAnswersLogged.has(deps.store)) {
    unreadAnswersLogged.add(deps.store);
    deps.log.warn(
      { contact: key, effect: effect.key, answer: result.unread },
      'reply sent: publisher/add answered 2xx with a body that is not the documented envelope (logged once); the reply counts as sent',
    );
  }
  const recorded: ReplyResult = {
    publisherMentionId: result.publisher_mention?.id === undefined ? null : String(result.publisher_mention.id),
    messageIds: result.messages.map((m) => String(m.id)),
  };
  // Recorded (on disk) the moment the service answers: whatever happens after this, the reply is known to be out,
  // and nothing after it can have started without this on disk (see effect-doubt.ts). The conversation is not
  // written again: its line and `lastBotReplyAt` came with the decision (`withDecision`).
  await deps.store.completeEffect(effect.key, recorded);
  await deps.store.flush();
  deps.metrics.replies.inc({ channel });
  deps.shadow?.reply({ atMs: deps.now(), contactKey: key, text: p.text });
  // Not awaited (it never rejects): the contact's next reply need not wait for it; the run waits at its end.
  void learnBotUser(deps, result.publisher_mention);
  return endRecordedBy(recorded);
}

/** Stores (one per bridge) whose log already says that publish answers are not the envelope. */
const unreadAnswersLogged = new WeakSet<object>();

function sameServices(a: readonly ReplyService[], b: readonly ReplyService[]): boolean {
  const text = (l: readonly ReplyService[]) => JSON.stringify(l.map((x) => `${x.type}/${x.service_id}`).sort());
  return text(a) === text(b);
}
