// Runs what a button, an intent or an answered question leads to.
import type { Flows, Step } from './flow-schema.js';
import type { Turn } from './turn.js';
import { escalationRequest, requestEscalation } from './escalate.js';
import { stripAccents } from '../shared/fold-text.js';
import { linearPattern } from './linear-pattern.js';
import { namedLanguageButton } from './language-names.js';

/** The value a question's pattern finds in a text (its first group, if any). */
export function extractAnswer(pattern: string, text: string): string | undefined {
  const m = linearPattern(pattern).exec(stripAccents(text));
  if (!m) return undefined;
  return (m[1] ?? m[0] ?? '').trim() || undefined;
}

export interface StepOrigin {
  /** Reason code for an escalate step that names none. */
  reason: string;
  /** The customer's words (or the button) that led here. */
  words: string;
  intent?: string;
  /** Priority for an escalate step that names none (a trigger's own priority). */
  priority?: Flows['escalation']['priority'] | undefined;
}

const MAX_DEPTH = 8;

/** The customer's typed message of this turn (not a click's title). */
function typedText(turn: Turn): string | undefined {
  const event = turn.input.event;
  return event.kind === 'message' && !event.clicked?.length && typeof event.text === 'string' ? event.text : undefined;
}

export function askQuestion(turn: Turn, name: string, depth = 0): void {
  const q = turn.flows.questions[name];
  if (!q) return;
  // The message already holds the answer ("where is order AB-12345"): an NLU entity, or, for a question that declares
  // its entity, the pattern found anywhere in the customer's message. No need to ask.
  const event = turn.input.event;
  const said = event.kind === 'message' && !event.clicked?.length ? event.text : undefined;
  const found =
    q.entity !== undefined
      ? (turn.nlu?.entities.find((e) => e.entity === q.entity)?.value ??
        (said !== undefined && extractAnswer(q.pattern, said) !== undefined ? said : undefined))
      : undefined;
  const value = found !== undefined ? extractAnswer(q.pattern, found) : undefined;
  if (value !== undefined) {
    turn.state.collected[q.save_as ?? name] = q.uppercase ? value.toUpperCase() : value;
    if (
      runStep(
        turn,
        q.then,
        { reason: name, words: found ?? '', ...(turn.state.lastIntent ? { intent: turn.state.lastIntent } : {}) },
        depth + 1,
      )
    )
      return;
  }
  turn.state.question = { name, attempts: 0, askedAt: turn.nowMs };
  // Typed numbers now answer the question, not the menu shown before it.
  delete turn.state.offer;
  turn.reply(q.prompt);
}

/** Runs an intent: always-human intents escalate (when that trigger is on), others run their step. */
export function runIntent(turn: Turn, name: string, words: string, depth = 0): boolean {
  const intent = turn.flows.intents[name];
  if (!intent) return false;
  turn.state.lastIntent = name;
  const trigger = turn.flows.escalation.triggers.always_human;
  if (intent.always_human && trigger.enabled) {
    requestEscalation(turn, escalationRequest(turn, 'always_human', words, { priority: trigger.priority, intent: name }));
    return true;
  }
  if (!intent.then) return false;
  return runStep(turn, intent.then, { reason: 'flow', words, intent: name }, depth + 1);
}

/** Returns false when the step could not act (so the caller can fall back). */
export function runStep(turn: Turn, step: Step, origin: StepOrigin, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (step.reply !== undefined) {
    turn.reply(step.reply, step.menu);
    return true;
  }
  if (step.menu !== undefined) {
    const menu = turn.flows.menus[step.menu];
    if (!menu) return false;
    // The customer named the language they want ("kunnen we in het Frans verder?"): the menu still confirms it, in the
    // language spoken so far, and the next message goes on in the named one unless another is picked or written.
    const named = namedLanguageButton(turn.flows, step.menu, typedText(turn) ?? origin.words);
    if (named !== undefined) turn.state.languageAsked = named;
    else delete turn.state.languageAsked;
    turn.reply(menu.text, step.menu);
    return true;
  }
  if (step.ask !== undefined) {
    if (!turn.flows.questions[step.ask]) return false;
    askQuestion(turn, step.ask, depth);
    return true;
  }
  if (step.intent !== undefined) return runIntent(turn, step.intent, origin.words, depth);
  if (step.language !== undefined) {
    // The customer's own choice wins over every clue, now and in later conversations of this contact.
    turn.state.chosenLanguage = step.language;
    turn.state.language = step.language;
    turn.state.languageSource = 'choice';
    turn.reply(turn.flows.languages.switched, turn.mainMenu);
    return true;
  }
  if (step.escalate !== undefined) {
    const spec = step.escalate === true ? {} : step.escalate;
    requestEscalation(
      turn,
      escalationRequest(turn, spec.reason ?? origin.reason, origin.words, {
        priority: spec.priority ?? origin.priority,
        tags: spec.tags,
        note: spec.note,
        intent: origin.intent,
      }),
    );
    return true;
  }
  return false;
}
