import { decide, type BotEvent, type Decision, type Channel, type TranscriptLine as BotLine } from '../bot/index.js';
import type { ConversationRecord } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import { planEffects, type ReplyTarget, type EffectPayload } from './effect-payload.js';
import { serviceWindowClosed } from './service-time.js';

/** Asks the brain about one event of a conversation, with everything it needs passed in. */
export function runBrain(
  ctx: BridgeContext,
  conv: ConversationRecord,
  event: BotEvent,
  contact: { name?: string | undefined; tags: string[] },
  /** The state an earlier decision of the same batch left (not applied to the record until its effect runs). */
  dialog: unknown = conv.dialog,
): Decision {
  const transcript: BotLine[] = conv.transcript
    .filter((l): l is typeof l & { from: 'customer' | 'bot' | 'agent' } => l.from !== 'system')
    .map((l) => ({ at: l.at, from: l.from, text: l.text }));
  return decide({
    flows: ctx.flows,
    event,
    conversation: dialog as Decision['state'] | undefined,
    contact,
    channel: conv.channel as Channel,
    now: ctx.now(),
    hours: ctx.hours.input(),
    transcript,
    cannedResponses: ctx.hours.cannedResponses(),
    owner: conv.owner === 'bot' ? 'bot' : conv.owner === 'agents' ? 'agents' : undefined,
    serviceWindowClosed: serviceWindowClosed(ctx, conv),
  });
}

/**
 * Stores the decision durably before any of it is performed: the conversation patch now, and every effect, the
 * first of which carries the new dialog state and the bot's lines (applied when it is performed, see
 * `applyDecision`). `source` makes the effect keys (the inbound mention id, or the event).
 */
export async function commitDecision(
  ctx: BridgeContext,
  key: string,
  source: string,
  decision: Decision,
  target: ReplyTarget | undefined,
  patch: (c: ConversationRecord) => ConversationRecord,
  extra: { permalink?: string; customerName?: string } = {},
  /** When given, the durable write is not waited for here but collected, so a batch of decisions shares one. */
  durable?: Array<Promise<unknown>>,
): Promise<void> {
  const at = ctx.now();
  const botLines = decision.actions.flatMap((a) => (a.type === 'reply' ? [{ at, text: a.text }] : []));
  await ctx.store.updateConversation(key, (c) => (c ? { ...patch(c), updatedAt: at } : undefined));
  const planned = planEffects(source, decision.actions, target, extra, { state: decision.state, botLines });
  // Only effects stored now are known not to have happened: a twin from before a restart may have been performed.
  const existed = new Set<string>();
  for (const p of planned) if (await ctx.store.getEffect(p.key)) existed.add(p.key);
  // All in one coalesced write; and the first carries the others, should a crash split the write across files.
  const written = Promise.all(
    planned.map((p) => ctx.store.enqueueEffect({ key: p.key, kind: p.payload.kind, contactKey: key, payload: p.payload })),
  ).then((stored) => {
    for (const e of stored) if (!existed.has(e.key) && e.attempts === 0 && e.status === 'pending') ctx.clean.add(e.key);
  });
  if (durable) durable.push(written);
  else await written;
  for (const a of decision.actions) if (a.type === 'nothing') ctx.log.debug({ contact: key, why: a.why }, 'bot: nothing to do');
}

/**
 * Performs a decision effect: the conversation takes the brain's new state and the bot's lines (once), and every
 * follow-up effect is known to the outbox (a crash between file writes may have kept this one and not them).
 */
export async function applyDecision(
  ctx: Pick<BridgeContext, 'store' | 'log' | 'now'>,
  key: string,
  state: unknown,
  botLines: ReadonlyArray<{ at: number; text: string }>,
  followUps: ReadonlyArray<{ key: string; payload: EffectPayload }>,
): Promise<void> {
  for (const f of followUps) {
    if (await ctx.store.getEffect(f.key)) continue;
    ctx.log.warn({ contact: key, effect: f.key }, 'an effect of a decision was missing after a restart: restoring it');
    await ctx.store.enqueueEffect({ key: f.key, kind: f.payload.kind, contactKey: key, payload: f.payload });
  }
  if (state === undefined) return;
  const wanted = JSON.stringify(state);
  await ctx.store.updateConversation(key, (c) => {
    if (!c || JSON.stringify(c.dialog) === wanted) return undefined;
    const s = state as { stretchStartedAt?: number };
    return {
      ...c,
      dialog: state,
      ...(typeof s.stretchStartedAt === 'number' ? { stretchStartedAt: s.stretchStartedAt } : {}),
      transcript: [...c.transcript, ...botLines.map((l) => ({ at: l.at, from: 'bot' as const, text: l.text }))],
      updatedAt: ctx.now(),
    };
  });
}
