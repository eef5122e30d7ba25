import type { Effect } from '../storage/index.js';
import { applyDecision } from './run-brain.js';
import type { PayloadOf, PerformerDeps } from './performer.js';

/** The first effect of every decision: the conversation takes the brain's new state; lost follow-ups are restored. */
export async function performDecision(deps: PerformerDeps, effect: Effect, p: PayloadOf<'decision'>): Promise<{ decided: true }> {
  await applyDecision(deps, effect.contactKey, p.state, p.botLines ?? [], p.followUps ?? []);
  return { decided: true };
}
