import type { Effect } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import type { EffectPayload } from './effect-payload.js';
import type { PayloadOf, PerformerDeps } from './performer.js';
import { withDecision } from '../run-brain.js';

/**
 * A pending decision effect, stored by a version before decisions were recorded whole (`Store.recordDecision`
 * stores the mark already done): the conversation takes the state it carries and the bot's lines (once), and lost
 * follow-ups are restored. Kept so a data directory from before the upgrade finishes its decisions.
 */
export async function performDecision(deps: PerformerDeps, effect: Effect, p: PayloadOf<'decision'>): Promise<{ decided: true }> {
  await applyDecision(deps, effect.contactKey, p.state, p.botLines ?? [], p.followUps ?? []);
  return { decided: true };
}

/**
 * Applies a decision stored the old way: every follow-up effect is known to the outbox (a crash between file writes
 * may have kept the decision and not them), and the state is taken unless the conversation has it already.
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
  await ctx.store.updateConversation(key, (c) =>
    !c || JSON.stringify(c.dialog) === wanted ? undefined : withDecision(c, state, botLines, ctx.now()),
  );
}
