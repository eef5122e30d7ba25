// When the NLU is not sure: ask which of the two likeliest intents the customer meant, rather than guess; and an
// order number (a question's declared entity) with nothing else understood leads to the intent that asks for it.
import type { Turn } from './turn.js';
import type { Button } from './types.js';
import type { IntentMatch } from './match-intent.js';
import { extractAnswer } from './run-step.js';
import { PERSON_INTENT } from './training-set.js';

/** A button of a menu that leads to the intent (for a person: one that escalates), main menu first. */
function buttonFor(turn: Turn, intent: string): { menu: string; button: Button } | undefined {
  const menus = Object.entries(turn.flows.menus).sort(([a], [b]) => Number(b === turn.mainMenu) - Number(a === turn.mainMenu));
  for (const [menu, spec] of menus) {
    const i = spec.buttons.findIndex((b) => (intent === PERSON_INTENT ? b.then.escalate !== undefined : b.then.intent === intent));
    const b = spec.buttons[i];
    if (b?.title !== undefined) return { menu, button: { id: b.id ?? `${menu}-${i + 1}`, title: b.title } };
  }
  return undefined;
}

/** Offers the two likeliest intents when both are likely enough and a menu has a button for each; false otherwise. */
export function clarify(turn: Turn): boolean {
  const r = turn.nlu;
  const min = turn.flows.nlu.embedded.clarify_min;
  if (!r?.runnerUp || r.confidence < min || r.runnerUp.confidence < min) return false;
  const first = buttonFor(turn, r.intent);
  const second = buttonFor(turn, r.runnerUp.intent);
  if (!first || !second || first.menu !== second.menu || first.button.id === second.button.id) return false;
  turn.replyOffering(turn.flows.nlu.clarify, { menu: first.menu, buttons: [first.button, second.button] });
  return true;
}

/** Dashes as phones and word processors type them ("AB–12345"), read as the hyphen patterns expect. */
export function plainDashes(text: string): string {
  return text.replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/gu, '-');
}

/** The value of a question's pattern in a customer's text, typed dashes read as hyphens. */
export function entityValue(pattern: string, text: string): string | undefined {
  return extractAnswer(pattern, text) ?? extractAnswer(pattern, plainDashes(text));
}

/** The intent whose question the text already answers ("AB-12345" alone), for a question that declares an entity. */
export function intentForEntity(turn: Turn, text: string): IntentMatch | undefined {
  for (const [name, intent] of Object.entries(turn.flows.intents)) {
    const q = intent.then?.ask !== undefined ? turn.flows.questions[intent.then.ask] : undefined;
    if (q?.entity === undefined) continue;
    const value = entityValue(q.pattern, text);
    if (value !== undefined) return { name, words: value };
  }
  return undefined;
}

/**
 * Keeps every declared entity the customer's message holds ("a refund for order AB-12345", "a person about
 * AB-12345"): whatever follows, a person or a question gets the value, and the bot does not ask for it again.
 */
export function collectEntities(turn: Turn, text: string): void {
  for (const [name, q] of Object.entries(turn.flows.questions)) {
    if (q.entity === undefined) continue;
    const value = entityValue(q.pattern, text);
    if (value !== undefined) turn.state.collected[q.save_as ?? name] = q.uppercase ? value.toUpperCase() : value;
  }
}
