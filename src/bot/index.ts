// The bot brain's public API, for the bridge, the scheduler, the `hours` command and the Slack notice.
//
// How the bridge uses it, for every event of one contact (serially, per contact):
//   const { actions, state } = decide({ flows, event, conversation, contact, channel, now, hours, transcript,
//                                       cannedResponses, owner });
//   persist `state` (plain JSON, `v: 1`) with the conversation, then perform `actions` IN ORDER:
//   - reply              publish `text` to the customer; with `quickReplies`, publish with its `cannedResponseId`
//                        (native buttons). Allowed only while the bridge's owner is `bot` at send time: the brain
//                        never emits a reply after an `escalate` in one decision, and only emits one after a
//                        `cancel-escalation` (which the bridge performs first, returning ownership to the bot).
//   - escalate           POST handover (agents own it), add `note` to the mention, set `priority` and `tags`,
//                        notify Slack from `packet` (the structured context: reason, trigger words, intent,
//                        collected values, sentiment trend, summary, transcript window of the current stretch).
//                        If the handover fails, call decide with { kind: 'escalation-failed' }.
//   - queue-escalation   out of hours: the bot keeps the conversation; at `releaseAt` (next opening) call decide
//                        with { kind: 'opening-time' } and perform the escalate it returns.
//   - cancel-escalation  the customer called off a pending escalation: unschedule a queued one, or DELETE
//                        handover when one was sent and nobody took it (if an agent did, skip the replies after it).
//   - nothing            no effect; `why` says why (for the log).
// Other events: { kind: 'returned-to-bot', reason } (agents gave it back: the brain answers with a
// "back with the assistant" turn), { kind: 'agent-took-over' } (a person owns it: the brain stays silent).
// `owner` (what the bridge knows) corrects the brain when they disagree: 'agents' silences it (implicit
// takeover); 'bot' after a person had it resumes with the "back" turn (but not within
// `conversation.handover_grace_minutes` of an escalate, while the handover may still be in flight). `now` is passed in; nothing here
// reads a clock or does I/O (the flow file is read by `src/settings/flow-file.ts`).

export { decide } from './decide.js';
export { loadLanguageGuesser } from './language-guesser.js';
export { flowLanguages, mayGuessLanguage } from './choose-language.js';
export { CANCEL_INTENT, PERSON_INTENT, missingExamples, trainingSetOf } from './training-set.js';
export type { TrainingSet } from './training-set.js';
export type { LanguageGuesser } from './language-guesser.js';
export type { BotEvent, DecideInput, HoursInput, NluReading } from './bot-event.js';
export { decisionSchema, actionSchema, contextPacketSchema } from './decision.js';
export type { Action, ContextPacket, Decision, EscalateAction, ReplyAction } from './decision.js';
export { dialogStateSchema, freshState } from './dialog-state.js';
export type { DialogState, PendingEscalation } from './dialog-state.js';
export { parseFlows, FlowFileError } from './parse-flows.js';
export type { FlowProblem } from './parse-flows.js';
export { flowFileSchema } from './flow-schema.js';
export type { Flows, Step, MenuSpec, IntentSpec, QuestionSpec } from './flow-schema.js';
export { hoursStatus, isOpen, nextOpening } from './business-hours.js';
export type { HoursStatus } from './business-hours.js';
export { describeMoment, describeTime, describeWeek, ENGLISH_HOURS_WORDS } from './describe-hours.js';
export type { HoursWords } from './describe-hours.js';
export { renderNote } from './render-note.js';
export { REASON_LABELS } from './context-packet.js';
export { menuOffer, replyWithOffer, selectByText } from './quick-replies.js';
export { OUTCOMES } from './outcome-texts.js';
export type { Outcome } from './outcome-texts.js';
export { CHANNELS } from './types.js';
export type {
  BusinessHoursSchedule,
  Button,
  CannedResponse,
  Channel,
  ContactInfo,
  SchedulePeriod,
  Sentiment,
  TranscriptLine,
} from './types.js';
