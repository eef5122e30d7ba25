// A customer's message while the bot owns the conversation: triggers first, then menus, questions, intents, fallback.
import type { Turn } from './turn.js';
import type { Button, Sentiment } from './types.js';
import { foldText, containsPhrase } from '../shared/fold-text.js';
import { findWords, matchIntent, nluIntent, nluThreshold, phrasesAndKeywords } from './match-intent.js';
import { blankRefused, withoutNegated } from '../shared/negation.js';
import { anyoneCalled } from './anyone-called.js';
import { personOnlyReported } from './reported-person.js';
import { aboutSomethingElse, someoneAsked } from './someone-asked.js';
import { CANCEL_INTENT, NONE_INTENT, PERSON_INTENT } from './training-set.js';
import { clarify, collectEntities, intentForEntity } from './clarify.js';
import { selectByText } from './quick-replies.js';
import { selectLanguageByName } from './language-names.js';
import { escalationRequest, passOnMessage, requestEscalation, sayOutcome } from './escalate.js';
import { handleClick } from './handle-click.js';
import { answersQuestion, handleAnswer } from './handle-question.js';
import { runIntent } from './run-step.js';
import { thanksAfterAnswer } from './thanks-after-answer.js';

export type MessageResult = 'handled' | 'unmatched';

/** The service's sentiment as one of three values; anything else is no information. */
export function readSentiment(value: unknown): Sentiment | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 0 ? 'negative' : value > 0 ? 'positive' : 'neutral';
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return v === 'negative' || v === 'positive' || v === 'neutral' ? v : undefined;
}

/** Whether the NLU reads the message as `intent` (one of the reserved ones) with confidence. */
function nluSays(turn: Turn, intent: string): boolean {
  const r = turn.nlu;
  return r !== undefined && r.intent === intent && r.confidence >= nluThreshold(turn.flows, r);
}

/** The NLU's "never mind" counts in a message of at most this many words ("forget it", not "cancel my order and..."). */
const CANCEL_WORDS = 6;
/** While people are asked for, a retreat may come with its reason: "nah it's fine, sorted it out myself". */
const CANCEL_WORDS_PENDING = 10;

/** The customer's words: "it's", "j'ai" and "n'est" are one each. */
const wordsIn = (text: string): number => (text.match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []).length;

/** A short message that says "never mind" (and not "cancel my order"). */
export function isCancel(turn: Turn, text: string): boolean {
  const cancel = turn.flows.escalation.cancel;
  if (!cancel.enabled) return false;
  const folded = foldText(text);
  const most = turn.state.pendingEscalation ? CANCEL_WORDS_PENDING : CANCEL_WORDS;
  // The NLU's "never mind" counts for a short message without digits (an order number is an answer, not a retreat).
  // Not while a question waits: a short reply to it ("no", "that one") is an answer that does not fit, asked again.
  if (wordsIn(text) <= most && !/\d/.test(folded) && !turn.state.question && nluSays(turn, CANCEL_INTENT)) return true;
  // While people are asked for, refusing them calls it off: "actually I don't need an agent anymore".
  if (turn.state.pendingEscalation && refusesPerson(turn, text)) return true;
  // A phrase counts in a short clause of its own: "oh never mind, I found it myself" calls the request off.
  const clauses = text
    .split(/[,.;:!?\n]+/u)
    .map(foldText)
    .filter(Boolean);
  return cancel.phrases.some((p) => {
    const phrase = foldText(p);
    return clauses.some((c) => containsPhrase(c, phrase) && c.split(' ').length <= phrase.split(' ').length + 1);
  });
}

/** The text names a person only in a clause that refuses one ("no agent needed", "geen medewerker meer nodig"). */
function refusesPerson(turn: Turn, text: string): boolean {
  const words = phrasesAndKeywords(turn.flows.escalation.triggers.explicit_request);
  return findWords(text, words) !== undefined && findWords(blankRefused(text), words) === undefined;
}

export function handleCancel(turn: Turn): void {
  const { state } = turn;
  const pending = state.pendingEscalation;
  if (pending) {
    turn.actions.push({ type: 'cancel-escalation', reason: pending.reason });
    delete state.pendingEscalation;
    state.mode = 'bot';
    sayOutcome(turn, 'cancelled', pending.reason, turn.mainMenu);
  } else if (state.takingMessage) {
    const reason = state.takingMessage.reason;
    delete state.takingMessage;
    sayOutcome(turn, 'cancelled', reason, turn.mainMenu);
  } else if (state.question) {
    delete state.question;
    turn.reply(turn.flows.conversation.question_cancelled, turn.mainMenu);
  } else {
    sayOutcome(turn, 'nothing_to_cancel', 'none', turn.mainMenu);
  }
}

/** Not understood: the two likeliest intents when the NLU hesitates between them, else the menu; escalates when repeated. */
function fallback(turn: Turn, text: string): void {
  const { state, flows } = turn;
  state.fallbacks += 1;
  const trigger = flows.escalation.triggers.repeated_fallback;
  if (trigger.enabled && state.fallbacks >= trigger.count) {
    requestEscalation(turn, escalationRequest(turn, 'repeated_fallback', text, { priority: trigger.priority }));
    return;
  }
  if (clarify(turn)) return;
  turn.reply(flows.fallback.text, flows.fallback.menu);
}

/**
 * The customer asks for a person: the flows' words (unless refused: "no agent needed"), or the NLU's reading when no
 * keyword of an intent says otherwise ("ik wil graag een refund" is about a refund, however much it sounds like "ik wil
 * graag een medewerker").
 */
function personAsked(turn: Turn, text: string): boolean {
  const t = turn.flows.escalation.triggers.explicit_request;
  if (!t.enabled) return false;
  if (personWords(turn, text)) return true;
  if (!nluSays(turn, PERSON_INTENT) || aboutSomethingElse(text)) return false;
  const keyword = matchIntent(turn.flows, withoutNegated(requestPart(text)));
  // A keyword yields to a sure reading that hesitates with nothing else ("... a return and a new order, so I would
  // really like someone from your team to take this over").
  const r = turn.nlu;
  return keyword === undefined || ((r?.confidence ?? 0) >= SURE_PERSON && r?.runnerUp?.intent !== keyword.name);
}

/**
 * The flows' words for a person, or a request they do not hold ("I'd rather discuss this with someone", "call me"),
 * outside a clause that refuses one, and not only a person told about; or "anybody?".
 */
function personWords(turn: Turn, text: string): boolean {
  const t = turn.flows.escalation.triggers.explicit_request;
  if (!t.enabled) return false;
  const said = blankRefused(text);
  if (anyoneCalled(said)) return true;
  const asked = someoneAsked(said);
  const words = asked.length === 0 ? phrasesAndKeywords(t) : [...phrasesAndKeywords(t), ...asked];
  // A person told about ("the agent was very helpful") is no request: the NLU decides.
  return (asked.length > 0 || findWords(said, words) !== undefined) && !personOnlyReported(said, words);
}

/** From this many words a message is long: what comes before its last clause is context ("the parcel went to ..."). */
const LONG_WORDS = 16;
const CLAUSE = /[,.;:!?\n]+|\s(?:but|maar|mais)\s/iu;

/**
 * Where an intent's keyword overrules the NLU's request for a person: the whole of a short message ("ik wil graag een
 * refund"), the last clause of a long one (its first clauses tell the story: "The parcel went to the wrong address,
 * ... I need somebody from your company to look into this properly, not an automated answer.").
 */
function requestPart(text: string): string {
  if (wordsIn(text) < LONG_WORDS) return text;
  const clauses = text.split(CLAUSE).filter((c) => wordsIn(c) >= 2);
  return clauses.length >= 2 ? (clauses.at(-1) ?? text) : text;
}

/** The NLU's confidence in a request for a person that an intent's keyword in the text does not overrule. */
const SURE_PERSON = 0.95;

/** A contact tagged for personal service (e.g. vip) goes to people once, on the first message the bot sees. */
function contactTagTriggered(turn: Turn): boolean {
  const { state, flows, input } = turn;
  const t = flows.escalation.triggers;
  const tag =
    t.contact_tag.enabled && !state.contactTagEscalated
      ? input.contact.tags.find((c) => t.contact_tag.tags.some((x) => foldText(x) === foldText(c)))
      : undefined;
  if (tag !== undefined) {
    state.contactTagEscalated = true;
    requestEscalation(
      turn,
      escalationRequest(turn, 'contact_tag', `contact tag ${tag}`, { priority: t.contact_tag.priority, tags: [tag] }),
    );
    return true;
  }
  return false;
}

/** The customer's last messages were all angry, as many as the trigger counts. */
function angerStreak(turn: Turn): boolean {
  const t = turn.flows.escalation.triggers.negative_sentiment;
  const recent = turn.state.sentiments.slice(-t.count);
  return t.enabled && recent.length === t.count && recent.every((s) => s === 'negative');
}

function textTriggered(turn: Turn, text: string): boolean {
  const { state, flows } = turn;
  const t = flows.escalation.triggers;
  if (personAsked(turn, text)) {
    requestEscalation(turn, escalationRequest(turn, 'explicit_request', text, { priority: t.explicit_request.priority }));
    return true;
  }
  if (angerStreak(turn)) {
    requestEscalation(turn, escalationRequest(turn, 'negative_sentiment', text, { priority: t.negative_sentiment.priority }));
    // The trend was reported; the next unhappy messages count afresh.
    state.sentiments = [];
    return true;
  }
  return false;
}

/** Returns 'unmatched' when nothing in the flows understood the message and no fallback was sent (a new conversation's first words). */
export function handleMessage(turn: Turn, text: string, clicked: Button | undefined, isNew: boolean): MessageResult {
  const { state } = turn;
  const offer = state.offer;
  // Under a language menu, naming one of its languages picks it ("Dutch", "Français svp").
  const click =
    clicked ?? (offer ? (selectByText(text, offer.buttons, offer.numbered) ?? selectLanguageByName(turn.flows, offer, text)) : undefined);
  // "Laat maar, jullie zijn waardeloos" after another angry message, with no people asked for: the anger counts.
  const noPeople = !state.pendingEscalation && !state.takingMessage;
  if (!clicked && isCancel(turn, text) && !isNew && !(noPeople && angerStreak(turn))) {
    handleCancel(turn);
    return 'handled';
  }
  if (state.takingMessage && !click) {
    passOnMessage(turn, text);
    return 'handled';
  }
  delete state.takingMessage;
  if (!clicked) collectEntities(turn, text);
  if (contactTagTriggered(turn)) return 'handled';
  let said = text;
  if (click) {
    const r = handleClick(turn, click);
    if (r === 'handled') return 'handled';
    if (r === 'unmatched') {
      fallback(turn, click.title);
      return 'handled';
    }
    said = [click.title, click.payload].filter(Boolean).join(' ');
  }
  // A reply holding the value asked for answers the question, whatever the NLU hears in "AB-12345 please"; the flows'
  // words for a person still come first ("AB-12345, but I want an agent").
  const answer = !click && state.question !== undefined && answersQuestion(turn, said) && !personWords(turn, said);
  if (answer && handleAnswer(turn, said) === 'handled') return 'handled';
  if (textTriggered(turn, said)) return 'handled';
  if (state.question && handleAnswer(turn, said) === 'handled') return 'handled';
  // A pattern is an exact override; then the NLU, which reads typed text only (a click's title is ours, the keywords
  // know it); then the keywords and phrases, outside the clauses the customer negated ("not a refund, my parcel"),
  // unless the NLU is sure the flows do not cover the message ("how do I open an account?" is not about the hours).
  const exact = matchIntent(turn.flows, said);
  const outOfScope = !click && nluSays(turn, NONE_INTENT);
  const intent =
    (exact?.exact ? exact : undefined) ??
    (click ? undefined : thanksAfterAnswer(turn, said)) ??
    (click ? undefined : nluIntent(turn.flows, turn.nlu, said)) ??
    (outOfScope ? undefined : matchIntent(turn.flows, withoutNegated(said))) ??
    (click ? undefined : intentForEntity(turn, said));
  if (intent && runIntent(turn, intent.name, intent.words)) {
    state.fallbacks = 0;
    return 'handled';
  }
  if (isNew) return clarify(turn) ? 'handled' : 'unmatched';
  fallback(turn, said);
  return 'handled';
}
