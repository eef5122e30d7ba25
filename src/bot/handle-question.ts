// A pending question: validate the answer, collect it, re-ask, or give up.
import type { Turn } from './turn.js';
import { escalationRequest, requestEscalation } from './escalate.js';
import { extractAnswer as extract, runStep } from './run-step.js';
import { matchIntent, nluIntent } from './match-intent.js';
import { entityValue } from './clarify.js';

export type AnswerResult = 'handled' | 'not-an-answer';

/** Whether the text holds a value that fits the pending question. */
export function answersQuestion(turn: Turn, text: string): boolean {
  const q = turn.state.question && turn.flows.questions[turn.state.question.name];
  return q !== undefined && entityValue(q.pattern, text) !== undefined;
}

/** The message names (by its words, or the NLU's confident reading) an intent other than one that asks this question. */
function changesSubject(turn: Turn, question: string, text: string): boolean {
  const { flows } = turn;
  const asking = (name: string): boolean => flows.intents[name]?.then?.ask === question;
  const other = [matchIntent(flows, text), nluIntent(flows, turn.nlu, text)].find((m) => m !== undefined && !asking(m.name));
  return other !== undefined;
}

export function handleAnswer(turn: Turn, text: string): AnswerResult {
  const { state, flows } = turn;
  const pending = state.question;
  const q = pending && flows.questions[pending.name];
  if (!pending || !q) {
    delete state.question;
    return 'not-an-answer';
  }
  const entity = q.entity !== undefined ? turn.nlu?.entities.find((e) => e.entity === q.entity)?.value : undefined;
  // The NLU may find the value where the pattern does not ("it's ab 12345"); it still has to fit the pattern.
  const value = entityValue(q.pattern, text) ?? (entity !== undefined ? extract(q.pattern, entity) : undefined);
  if (value !== undefined) {
    state.collected[q.save_as ?? pending.name] = q.uppercase ? value.toUpperCase() : value;
    delete state.question;
    state.fallbacks = 0;
    if (!runStep(turn, q.then, { reason: pending.name, words: text, ...(state.lastIntent ? { intent: state.lastIntent } : {}) })) {
      return 'not-an-answer';
    }
    return 'handled';
  }
  // A customer who changes the subject is not failing the question; words of the intent that asked it ("I don't know
  // my order number") are a reply to it, as are short replies the NLU reads as nothing or never mind ("no", "that one").
  if (changesSubject(turn, pending.name, text)) {
    delete state.question;
    return 'not-an-answer';
  }
  const attempts = pending.attempts + 1;
  if (attempts < q.max_attempts) {
    state.question = { ...pending, attempts };
    turn.reply(q.reask);
    return 'handled';
  }
  delete state.question;
  if (q.on_fail && runStep(turn, q.on_fail, { reason: 'question_failed', words: text })) return 'handled';
  requestEscalation(turn, escalationRequest(turn, 'question_failed', text));
  return 'handled';
}
