import { decide, type BotEvent, type Decision, type Channel, type LanguageGuesser, type TranscriptLine as BotLine } from '../bot/index.js';
import type { ConversationRecord } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import { planEffects, type ReplyTarget } from './effects/effect-payload.js';
import { serviceWindowClosed } from './service-time.js';

/** Asks the brain about one event of a conversation, with everything it needs passed in; it decides from the stored state. */
export function runBrain(
  ctx: BridgeContext,
  conv: ConversationRecord,
  event: BotEvent,
  contact: { name?: string | undefined; tags: string[] },
  languageGuesser?: LanguageGuesser,
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
    cannedResponses: ctx.hours.cannedResponses(),
    owner: conv.owner === 'bot' ? 'bot' : conv.owner === 'agents' ? 'agents' : undefined,
    serviceWindowClosed: serviceWindowClosed(ctx, conv),
    languageGuesser,
  });
}

/** The key that says a decision of this source was taken (a finished effect: see `Store.recordDecision`). */
export function decidedKey(source: string): string {
  return `${source}:decision`;
}

/** The conversation as a decision leaves it: the brain's new state and the bot's lines. */
export function withDecision(
  c: ConversationRecord,
  state: unknown,
  botLines: ReadonlyArray<{ at: number; text: string }>,
  at: number,
): ConversationRecord {
  const s = state as { stretchStartedAt?: unknown } | undefined;
  return {
    ...c,
    ...(state === undefined ? {} : { dialog: state }),
    ...(typeof s?.stretchStartedAt === 'number' ? { stretchStartedAt: s.stretchStartedAt } : {}),
    transcript: [...c.transcript, ...botLines.map((l) => ({ at: l.at, from: 'bot' as const, text: l.text }))],
    // The bot's last reply is dated as its transcript line is, by the decision: noting it again when the service
    // accepted the reply rewrote the whole conversation a second time per answer (issue 28).
    ...(botLines.length > 0 ? { lastBotReplyAt: botLines[botLines.length - 1]!.at } : {}),
    updatedAt: at,
  };
}

/**
 * Records the decision as one durable unit before any of it is performed: the conversation takes the patch, the
 * brain's new state and the bot's lines, and every effect is enqueued, in the same store write
 * (`Store.recordDecision`), so a crash keeps all of it or none. Taken once per `source` (which also makes the effect
 * keys: the inbound mention, or the event): committing it again changes nothing.
 */
export async function commitDecision(
  ctx: BridgeContext,
  key: string,
  source: string,
  decision: Decision,
  target: ReplyTarget | undefined,
  patch: (c: ConversationRecord) => ConversationRecord,
  extra: { permalink?: string; customerName?: string } = {},
  /**
   * `applied`: resolves once the decision is in the store's memory (the next decision reads it) and the caller
   * flushes the store before performing any effect, so a batch of decisions shares one durable write.
   */
  wait: 'durable' | 'applied' = 'durable',
): Promise<void> {
  const at = ctx.now();
  const botLines = decision.actions.flatMap((a) => (a.type === 'reply' ? [{ at, text: a.text }] : []));
  const planned = planEffects(source, decision.actions, target, extra);
  const recorded = await ctx.store.recordDecision(
    {
      contactKey: key,
      decidedKey: decidedKey(source),
      update: (c) => (c ? withDecision(patch(c), decision.state, botLines, at) : undefined),
      effects: planned.map((p) => ({ key: p.key, kind: p.payload.kind, payload: p.payload })),
    },
    { wait },
  );
  // Only effects stored now are known not to have happened: a twin from before a restart may have been performed.
  for (const e of recorded.effects) if (e.created) ctx.clean.add(e.effect.key);
  for (const a of decision.actions) if (a.type === 'nothing') ctx.log.debug({ contact: key, why: a.why }, 'bot: nothing to do');
}
