import { decide, type BotEvent, type Decision, type Channel, type TranscriptLine as BotLine } from '../bot/index.js';
import type { ConversationRecord } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import { planEffects, type ReplyTarget } from './effect-payload.js';

/** Asks the brain about one event of a conversation, with everything it needs passed in. */
export function runBrain(
  ctx: BridgeContext,
  conv: ConversationRecord,
  event: BotEvent,
  contact: { name?: string | undefined; tags: string[] },
): Decision {
  const transcript: BotLine[] = conv.transcript
    .filter((l): l is typeof l & { from: 'customer' | 'bot' | 'agent' } => l.from !== 'system')
    .map((l) => ({ at: l.at, from: l.from, text: l.text }));
  return decide({
    flows: ctx.flows,
    event,
    conversation: conv.dialog as Decision['state'] | undefined,
    contact,
    channel: conv.channel as Channel,
    now: ctx.now(),
    hours: ctx.hours.input(),
    transcript,
    cannedResponses: ctx.cannedResponses(),
    owner: conv.owner === 'bot' ? 'bot' : conv.owner === 'agents' ? 'agents' : undefined,
  });
}

/**
 * Stores the decision: the new dialog state, the bot's lines in the transcript and every effect, durable together
 * before any of them is performed. `source` makes the effect keys (the inbound mention id, or the event).
 */
export async function commitDecision(
  ctx: BridgeContext,
  key: string,
  source: string,
  decision: Decision,
  target: ReplyTarget | undefined,
  patch: (c: ConversationRecord) => ConversationRecord,
  extra: { permalink?: string; customerName?: string } = {},
): Promise<void> {
  const at = ctx.now();
  const botLines = decision.actions.flatMap((a) => (a.type === 'reply' ? [{ at, from: 'bot' as const, text: a.text }] : []));
  await ctx.store.updateConversation(key, (c) => {
    if (!c) return undefined;
    const next = patch(c);
    return {
      ...next,
      dialog: decision.state,
      stretchStartedAt: decision.state.stretchStartedAt,
      transcript: [...next.transcript, ...botLines],
      updatedAt: at,
    };
  });
  const planned = planEffects(source, decision.actions, target, extra);
  for (const p of planned) {
    const stored = await ctx.store.enqueueEffect({ key: p.key, kind: p.payload.kind, contactKey: key, payload: p.payload });
    if (stored.attempts === 0 && stored.status === 'pending') ctx.clean.add(p.key);
  }
  for (const a of decision.actions) if (a.type === 'nothing') ctx.log.debug({ contact: key, why: a.why }, 'bot: nothing to do');
}
