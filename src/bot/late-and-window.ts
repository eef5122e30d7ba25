// Messages answered late (after downtime) and the channels' customer-service window: when the bot must not
// answer as if the customer had just written, or must not write at all.
import type { DecideInput } from './bot-event.js';
import { escalationRequest, handOver, requestEscalation } from './escalate.js';
import type { Turn } from './turn.js';

type MessageEvent = Extract<DecideInput['event'], { kind: 'message' }>;

/**
 * A message older than the maximum reply age, while the bot speaks: as the flows say, one apology turn for the
 * whole backlog (the rest is taken in without replies) or the people. Returns whether it handled the message.
 */
export function answerLateMessage(turn: Turn, event: MessageEvent, text: string): boolean {
  const { state } = turn;
  if (!event.late) {
    delete state.lateApologized;
    return false;
  }
  if (turn.flows.conversation.late_reply === 'people') {
    requestEscalation(
      turn,
      escalationRequest(turn, 'late', text, { note: 'The customer wrote while the bot was away, longer ago than it may answer.' }),
    );
    return true;
  }
  if (state.lateApologized) {
    turn.actions.push({ type: 'nothing', why: 'a message of the same backlog: the bot already apologised for the delay' });
    return true;
  }
  // What was asked before the delay is stale: the customer starts from the menu.
  delete state.question;
  delete state.offer;
  delete state.takingMessage;
  delete state.survey;
  state.lateApologized = true;
  turn.reply(turn.flows.conversation.late_apology, turn.mainMenu);
  return true;
}

/**
 * Past the channel's customer-service window no free-form message goes out: the replies are dropped, and a
 * customer message the bot meant to answer is handed to people with a note that says why (they can reply with a
 * template the channel allows).
 */
export function keepServiceWindow(turn: Turn): void {
  if (!turn.input.serviceWindowClosed || !turn.actions.some((a) => a.type === 'reply')) return;
  const kept = turn.actions.filter((a) => a.type !== 'reply');
  turn.actions.splice(0, turn.actions.length, ...kept);
  const event = turn.input.event;
  if (event.kind === 'message' && turn.state.mode === 'bot') {
    const req = escalationRequest(turn, 'service_window', event.text, {
      note: "The channel's 24-hour customer-service window is closed, so the bot did not answer: reply with a template.",
    });
    handOver(turn, req);
    return;
  }
  turn.actions.push({ type: 'nothing', why: "the channel's customer-service window is closed: no message may go out" });
}
