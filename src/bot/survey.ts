// The customer's verdict: a CSAT or NPS question when a stretch with people ends, and reading the answer.
import type { Turn } from './turn.js';
import type { CannedResponse } from './types.js';
import type { Button } from './types.js';
import { foldText } from '../shared/fold-text.js';
import { nativeButtons } from './quick-replies.js';

type Kind = 'csat' | 'nps';
const RANGE: Record<Kind, [number, number]> = { csat: [1, 5], nps: [0, 10] };

/** The canned response to send: the one the flows name (by id or name, of the right type), else the account's first of that type. */
export function surveyCannedResponse(kind: Kind, ref: string | undefined, canned: readonly CannedResponse[]): CannedResponse | undefined {
  const ofKind = canned.filter((c) => c.type === kind);
  if (ref === undefined) return ofKind[0];
  return ofKind.find((c) => c.id === ref) ?? ofKind.find((c) => foldText(c.name) === foldText(ref));
}

/**
 * A stretch with people ended (`stretchStartedAt` is its start). Asks once per stretch, on the channels the flows
 * allow: natively with the canned response, or, on SMS or without one, as a question answered with a number.
 */
export function offerSurvey(turn: Turn, stretchStartedAt: number): void {
  const { state } = turn;
  const cfg = turn.flows.survey;
  if (cfg.type === 'off' || !cfg.channels.includes(turn.input.channel) || state.surveyedStretch === stretchStartedAt) return;
  const kind = cfg.type;
  // A canned response speaks one language: in another one, the flows must name one for it, else the text is asked.
  const cr = surveyInLanguage(turn) ? surveyCannedResponse(kind, cfg.canned_response, turn.input.cannedResponses ?? []) : undefined;
  const sendAt = cfg.delay_minutes > 0 ? turn.nowMs + cfg.delay_minutes * 60_000 : undefined;
  const timing = sendAt !== undefined ? { sendAt } : {};
  if (cr && nativeButtons(turn.input.channel)) {
    const text = cr.message?.trim() || fillScale(turn, kind);
    turn.actions.push({ type: 'reply', text, cannedResponseId: cr.id, ...timing });
  } else {
    turn.actions.push({ type: 'reply', text: fillScale(turn, kind), ...timing });
  }
  state.surveyedStretch = stretchStartedAt;
  state.survey = { kind, askedAt: sendAt ?? turn.nowMs, reason: state.lastEscalationReason ?? 'none', stretchStartedAt };
}

/** Whether the conversation's language may get the canned response: the default's, or one the flows name for it. */
function surveyInLanguage(turn: Turn): boolean {
  const flows = turn.input.flows;
  if (turn.language === flows.languages.default) return true;
  return (flows.translations?.[turn.language] ?? []).some((t) => t.path.join('.') === 'survey.canned_response');
}

function fillScale(turn: Turn, kind: Kind): string {
  const cfg = turn.flows.survey;
  return turn.fill(cfg.text.replaceAll('{scale}', kind === 'csat' ? cfg.csat_scale : cfg.nps_scale));
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  nul: 0,
  one: 1,
  een: 1,
  un: 1,
  une: 1,
  two: 2,
  twee: 2,
  deux: 2,
  three: 3,
  drie: 3,
  trois: 3,
  four: 4,
  vier: 4,
  quatre: 4,
  five: 5,
  vijf: 5,
  cinq: 5,
  six: 6,
  zes: 6,
  seven: 7,
  zeven: 7,
  sept: 7,
  eight: 8,
  acht: 8,
  huit: 8,
  nine: 9,
  negen: 9,
  neuf: 9,
  ten: 10,
  tien: 10,
  dix: 10,
};

/** A score in the kind's range from a clicked rating or a short answer ("4", "4/5", "vier", "8 out of 10"); else undefined. */
export function readScore(kind: Kind, text: string, clicked?: Button): number | undefined {
  const [min, max] = RANGE[kind];
  const candidates = clicked ? [clicked.payload ?? '', clicked.id, clicked.title] : [text];
  for (const c of candidates) {
    const words = foldText(c).split(' ').filter(Boolean);
    // A long message is a new question, not a rating that happens to hold a number.
    if (words.length === 0 || words.length > 4) continue;
    const first = words[0] ?? '';
    const n = /^\d{1,2}$/.test(first) ? Number(first) : NUMBER_WORDS[first];
    if (n !== undefined && n >= min && n <= max) return n;
  }
  return undefined;
}

/** A message while a survey waits: a score is recorded and thanked for; anything else ends the wait and is handled as usual. */
export function takeSurveyAnswer(turn: Turn, text: string, clicked: Button | undefined): boolean {
  const { state } = turn;
  const survey = state.survey;
  if (!survey) return false;
  const cfg = turn.flows.survey;
  // A delayed question not sent yet: the customer is not answering it, and it still awaits its answer.
  if (turn.nowMs < survey.askedAt) return false;
  const inWindow = turn.nowMs - survey.askedAt <= cfg.answer_minutes * 60_000;
  const score = inWindow ? readScore(survey.kind, text, clicked) : undefined;
  delete state.survey;
  if (score === undefined) return false;
  const prefix = cfg.tag_prefix ?? `${survey.kind}-`;
  turn.actions.push({
    type: 'survey-answer',
    kind: survey.kind,
    score,
    reason: survey.reason,
    channel: turn.input.channel,
    tags: [`${prefix}${score}`],
    tagContact: cfg.tag_contact,
  });
  turn.reply(cfg.thanks);
  return true;
}
