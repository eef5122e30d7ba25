// What the bot did with one customer message, in the labels of the flow test file: the intent it acted on
// (`human` for a hand-over on the customer's request, `cancel` for a request called off, `none` when it asked
// again or showed the menu), whether people got the conversation, the language it answered in, the values it kept.
import type { Action } from './decision.js';
import type { DialogState } from './dialog-state.js';
import type { Flows } from './flow-schema.js';

export interface TurnOutcome {
  intent: string;
  handover: boolean;
  language: string;
  entities: Record<string, string>;
}

/** Escalation reasons that mean the customer asked for a person (in words, or with the menu's button). */
const PERSON_REASONS = new Set(['explicit_request', 'quick_reply']);

export function turnOutcome(flows: Flows, before: DialogState | undefined, actions: readonly Action[], after: DialogState): TurnOutcome {
  const escalate = actions.find(
    (a): a is Extract<Action, { type: 'escalate' | 'queue-escalation' }> => a.type === 'escalate' || a.type === 'queue-escalation',
  );
  const handover = escalate !== undefined;
  const language = after.language ?? flows.languages.default;
  const entities = { ...after.collected, ...(escalate?.type === 'escalate' ? escalate.packet.collected : {}) };
  return { intent: intentActedOn(before, actions, after, escalate), handover, language, entities };
}

function intentActedOn(
  before: DialogState | undefined,
  actions: readonly Action[],
  after: DialogState,
  escalate: Extract<Action, { type: 'escalate' | 'queue-escalation' }> | undefined,
): string {
  if (actions.some((a) => a.type === 'cancel-escalation') || (before?.pendingEscalation && !after.pendingEscalation && !escalate))
    return 'cancel';
  if (escalate) {
    const reason = escalate.type === 'escalate' ? escalate.packet.reason : escalate.reason;
    if (PERSON_REASONS.has(reason)) return 'human';
    if (reason === 'repeated_fallback' || reason === 'negative_sentiment') return 'none';
    const intent = escalate.type === 'escalate' ? escalate.packet.intent : after.lastIntent;
    return intent ?? 'none';
  }
  if (after.fallbacks > (before?.fallbacks ?? 0)) return 'none';
  if (after.lastIntent !== undefined && (after.lastIntent !== before?.lastIntent || after.question !== undefined)) return after.lastIntent;
  // The same intent as last turn, answered again (no fallback, no escalation): that intent; nothing at all: none.
  return after.lastIntent !== undefined && replied(actions) && !before?.question ? after.lastIntent : 'none';
}

const replied = (actions: readonly Action[]): boolean => actions.some((a) => a.type === 'reply');
