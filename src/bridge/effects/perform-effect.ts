import type { Effect } from '../../storage/index.js';
import type { EffectPayload } from './effect-payload.js';
import { performCancelEscalation } from './perform-cancel-escalation.js';
import { performDecision } from './perform-decision.js';
import { performHandover } from './perform-handover.js';
import { performQueueEscalation } from './perform-queue-escalation.js';
import { performReply } from './perform-reply.js';
import { performSurveyAnswer } from './perform-survey-answer.js';
import type { EffectKind, Performer, PerformerDeps, Performers } from './performer.js';

/** The effect runner's table: which performer does each kind of effect. */
export const PERFORMERS: Performers = {
  decision: performDecision,
  reply: performReply,
  escalate: performHandover,
  'queue-escalation': performQueueEscalation,
  'cancel-escalation': performCancelEscalation,
  'survey-answer': performSurveyAnswer,
};

/** Performs one outbox effect with the performer of its kind; throws to let the outbox retry or give up. */
export async function performEffect(
  deps: PerformerDeps,
  effect: Effect,
  suspect: boolean,
  performers: Performers = PERFORMERS,
): Promise<unknown> {
  const payload = effect.payload as EffectPayload;
  const perform = performers[payload.kind] as Performer<EffectKind> | undefined;
  // A kind this version does not know (a newer one's effect): done as before, with nothing performed.
  if (!perform) {
    deps.log.warn({ contact: effect.contactKey, effect: effect.key, kind: payload?.kind }, 'no performer for this effect kind');
    return undefined;
  }
  return perform(deps, effect, payload, suspect);
}
