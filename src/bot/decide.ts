// The brain's one entry point: an event and the conversation's state in, actions and the next state out.
import type { DecideInput } from './bot-event.js';
import type { Decision } from './decision.js';
import { dialogStateSchema, freshState, newStretch, type DialogState } from './dialog-state.js';
import { Turn } from './turn.js';
import { releaseQueued, sayOutcome } from './escalate.js';
import { handleCancel, handleMessage, isCancel, readSentiment } from './handle-message.js';
import { chooseLanguage } from './choose-language.js';
import { offerSurvey, takeSurveyAnswer } from './survey.js';
import { answerLateMessage, keepServiceWindow } from './late-and-window.js';

const RECENT_IDS = 20;
const SENTIMENTS_KEPT = 10;

function returnToBot(turn: Turn, reason: string, survey = false): void {
  // People answered (a person took it), or they resolved it: that stretch gets the customer's verdict.
  const peopleStretch = turn.state.mode === 'agents' || reason === 'resolved' ? turn.state.stretchStartedAt : undefined;
  turn.state = newStretch(turn.state, turn.nowMs);
  sayOutcome(turn, 'returned', reason, turn.mainMenu);
  if (survey && peopleStretch !== undefined) offerSurvey(turn, peopleStretch);
}

/** After a long silence the customer starts over: greeted again, nothing collected, a vip escalated again. */
function newConversation(state: DialogState, nowMs: number): DialogState {
  const { lastIntent: _l, language: _lang, languageSource: _src, ...rest } = newStretch(state, nowMs);
  return { ...rest, collected: {}, contactTagEscalated: false };
}

/**
 * Just after an escalate action the bridge may still report the bot as owner (the handover effect not yet
 * performed); that is not a return. Past the grace period it is: the conversation must not stay stuck.
 */
function handoverInFlight(turn: Turn): boolean {
  const p = turn.state.pendingEscalation;
  const graceMs = turn.flows.conversation.handover_grace_minutes * 60_000;
  return turn.state.mode === 'escalated' && p?.status === 'handed-over' && turn.nowMs - p.since < graceMs;
}

/** What the customer wrote earlier in this stretch (the transcript may already hold this message, as its last line). */
function customerLinesBefore(transcript: DecideInput['transcript'], since: number, text: string): string[] {
  const lines = (transcript ?? []).filter((l) => l.from === 'customer' && l.at >= since).map((l) => l.text);
  if (lines[lines.length - 1] === text) lines.pop();
  return lines.slice(-5);
}

function takenByAgents(state: DialogState): void {
  state.mode = 'agents';
  delete state.pendingEscalation;
  delete state.takingMessage;
  delete state.question;
  delete state.offer;
}

function onMessage(turn: Turn, event: Extract<DecideInput['event'], { kind: 'message' }>, isNew: boolean): void {
  const { input, nowMs } = turn;
  const text = typeof event.text === 'string' ? event.text : '';
  if (turn.state.recentMentionIds.includes(event.mentionId)) {
    turn.actions.push({ type: 'nothing', why: `mention ${event.mentionId} was already handled` });
    return;
  }
  if (input.owner === 'agents' && turn.state.mode === 'bot') takenByAgents(turn.state);
  if (input.owner === 'bot' && turn.state.mode !== 'bot' && !handoverInFlight(turn)) returnToBot(turn, 'owner_changed');
  turn.state.recentMentionIds = [...turn.state.recentMentionIds, event.mentionId].slice(-RECENT_IDS);
  let fresh = isNew;
  const idleMs = turn.flows.conversation.new_after_idle_minutes * 60_000;
  if (!fresh && turn.state.mode === 'bot' && !turn.state.pendingEscalation && nowMs - turn.state.lastActivityAt > idleMs) {
    turn.state = newConversation(turn.state, nowMs);
    fresh = true;
  }
  const state = turn.state;
  if (state.mode === 'bot')
    chooseLanguage(turn.input.flows, state, {
      contact: input.contact,
      mentionLanguage: event.language,
      text,
      earlier: customerLinesBefore(input.transcript, state.stretchStartedAt, text),
      nlu: event.nlu,
      guess: input.languageGuesser,
    });
  // The service's sentiment field, and the tone of the customer's own words as the NLU reads them: either one's anger counts.
  const service = readSentiment(event.sentiment);
  const own = event.nlu?.sentiment;
  const sentiment = own === 'negative' || service === undefined ? (own ?? service) : service;
  if (sentiment) state.sentiments = [...state.sentiments, sentiment].slice(-SENTIMENTS_KEPT);
  state.lastActivityAt = nowMs;
  if (state.mode === 'agents') {
    turn.actions.push({ type: 'nothing', why: 'a person owns the conversation' });
    return;
  }
  if (state.mode === 'escalated') {
    if (isCancel(turn, text) && !event.clicked?.length) handleCancel(turn);
    else turn.actions.push({ type: 'nothing', why: 'waiting for an agent to take the conversation' });
    return;
  }
  if (answerLateMessage(turn, event, text)) return;
  state.turn += 1;
  if (state.survey && takeSurveyAnswer(turn, text, event.clicked?.[0])) return;
  const greeting = turn.flows.greeting;
  const before = turn.actions.length;
  const result = handleMessage(turn, text, event.clicked?.[0], fresh);
  if (!fresh) return;
  if (result === 'unmatched') {
    turn.reply(greeting.text, greeting.menu);
  } else {
    // The greeting opens the conversation; the answer's own quick replies follow it.
    turn.actions.splice(before, 0, { type: 'reply', text: turn.fill(greeting.text) || '…' });
  }
}

/** `state`: the turn changes it in place; it must be the brain's own (the parse's fresh copy, never the caller's). */
function decideSafely(input: DecideInput, state: DialogState | undefined, nowMs: number): Decision {
  const isNew = state === undefined;
  const turn = new Turn(input, state ?? freshState(nowMs), nowMs);
  const event = input.event;
  switch (event.kind) {
    case 'message':
      onMessage(turn, event, isNew);
      break;
    case 'returned-to-bot':
      // After a cancellation the bot already speaks; a second "back with the assistant" would be a duplicate.
      if (!isNew && turn.state.mode === 'bot') turn.actions.push({ type: 'nothing', why: 'the bot already has the conversation' });
      else returnToBot(turn, event.reason, true);
      break;
    case 'agent-took-over':
      takenByAgents(turn.state);
      break;
    case 'opening-time':
      if (!releaseQueued(turn)) turn.actions.push({ type: 'nothing', why: 'no escalation was queued' });
      break;
    case 'escalation-failed': {
      const pending = turn.state.pendingEscalation;
      if (turn.state.mode === 'escalated' && pending) {
        turn.state.mode = 'bot';
        delete turn.state.pendingEscalation;
        sayOutcome(turn, 'failed', pending.reason, turn.mainMenu);
      }
      break;
    }
  }
  keepServiceWindow(turn);
  if (turn.actions.length === 0) turn.actions.push({ type: 'nothing', why: `nothing to do for ${event.kind}` });
  return { actions: turn.actions, state: turn.state };
}

/**
 * Decides what to do about one event. Pure and total: it reads no clock and never throws
 * (an internal fault becomes a `nothing` action and the state as it was).
 */
export function decide(input: DecideInput): Decision {
  const raw = input.now instanceof Date ? input.now.getTime() : input.now;
  // The parse builds a new object (every part of the state is plain objects, arrays and primitives, all rebuilt), so
  // the turn works on it directly: no second parse, no clone. Only a failed decision reads the input again.
  const parsed = dialogStateSchema.safeParse(input.conversation);
  const nowMs = Number.isFinite(raw) ? raw : parsed.success ? parsed.data.lastActivityAt : 0;
  try {
    return decideSafely(input, parsed.success ? parsed.data : undefined, nowMs);
  } catch (e) {
    const previous = dialogStateSchema.safeParse(input.conversation);
    return {
      actions: [{ type: 'nothing', why: `the bot could not decide: ${(e as Error).message || 'unknown error'}` }],
      state: previous.success ? previous.data : freshState(nowMs),
    };
  }
}
