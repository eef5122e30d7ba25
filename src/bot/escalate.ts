// Escalation: hand over now, or tell the customer when people are back and queue, take a message or carry on.
import type { Turn } from './turn.js';
import type { PendingEscalation } from './dialog-state.js';
import type { Outcome } from './outcome-texts.js';
import { outcomeText } from './outcome-texts.js';
import { buildContextPacket } from './context-packet.js';
import { renderNote } from './render-note.js';
import type { Flows } from './flow-schema.js';

export type EscalationRequest = Omit<PendingEscalation, 'since' | 'status' | 'releaseAt'>;

type Priority = Flows['escalation']['priority'];

/** A request with the flow's defaults for priority and tags filled in. */
export function escalationRequest(
  turn: Turn,
  reason: string,
  words: string,
  extra: { priority?: Priority | undefined; tags?: string[] | undefined; note?: string | undefined; intent?: string | undefined } = {},
): EscalationRequest {
  const esc = turn.flows.escalation;
  return {
    reason,
    words,
    priority: extra.priority ?? esc.priority,
    tags: [...new Set([...esc.tags, ...(extra.tags ?? [])])],
    ...(extra.note !== undefined ? { note: turn.fill(extra.note) } : {}),
    ...((extra.intent ?? turn.state.lastIntent) !== undefined ? { intent: extra.intent ?? turn.state.lastIntent } : {}),
  };
}

export function sayOutcome(turn: Turn, outcome: Outcome, reason: string, menu?: string): void {
  turn.reply(outcomeText(turn.flows.escalation.texts, outcome, reason, turn.input.channel), menu);
}

/** Emits the escalate action with its context packet and note; the conversation waits for an agent. */
export function handOver(turn: Turn, req: EscalationRequest): void {
  const { state, input } = turn;
  const transcript = [...(input.transcript ?? [])];
  const event = input.event;
  if (event.kind === 'message' && event.text.trim() && transcript[transcript.length - 1]?.text !== event.text) {
    transcript.push({ at: turn.nowMs, from: 'customer', text: event.text });
  }
  const built = buildContextPacket({
    reason: req.reason,
    trigger: req.words,
    intent: req.intent,
    state,
    channel: input.channel,
    contactName: input.contact.name,
    // Only worth saying when the flows speak more than one.
    language: turn.input.flows.languages.supported.some((l) => l !== turn.language) ? turn.language : undefined,
    transcript,
    maxLines: turn.flows.conversation.transcript_max_lines,
  });
  const packet = req.note ? { ...built, summary: `${built.summary} ${req.note}` } : built;
  const note = renderNote(packet, turn.flows.conversation.note_max_bytes);
  turn.actions.push({ type: 'escalate', reason: req.reason, priority: req.priority, tags: req.tags, note, packet });
  state.mode = 'escalated';
  state.lastEscalationReason = req.reason;
  state.pendingEscalation = { ...req, since: turn.nowMs, status: 'handed-over' };
  delete state.question;
  delete state.takingMessage;
  delete state.offer;
  state.fallbacks = 0;
}

/** An escalation trigger fired: decide between now, queue, take a message, or let the bot continue. */
export function requestEscalation(turn: Turn, req: EscalationRequest): void {
  const { state, flows } = turn;
  if (state.pendingEscalation || state.mode !== 'bot') {
    sayOutcome(turn, 'already_pending', state.pendingEscalation?.reason ?? req.reason);
    return;
  }
  const hours = turn.hours();
  if (hours.open && hours.agents) {
    sayOutcome(turn, 'handover', req.reason);
    handOver(turn, req);
    return;
  }
  const policy = hours.open ? flows.escalation.when_no_agents : flows.escalation.when_closed;
  if (policy === 'escalate') {
    sayOutcome(turn, 'busy', req.reason);
    handOver(turn, req);
    return;
  }
  const away: Outcome = state.awaySentInStretch ? 'away_repeat' : `closed_${policy}`;
  sayOutcome(turn, away, req.reason, policy === 'continue' ? turn.mainMenu : undefined);
  state.awaySentInStretch = true;
  state.fallbacks = 0;
  delete state.question;
  if (policy === 'queue') {
    state.pendingEscalation = {
      ...req,
      since: turn.nowMs,
      status: 'queued',
      ...(hours.reopensAt !== undefined ? { releaseAt: hours.reopensAt } : {}),
    };
    turn.actions.push({
      type: 'queue-escalation',
      reason: req.reason,
      ...(hours.reopensAt !== undefined ? { releaseAt: hours.reopensAt } : {}),
    });
  } else if (policy === 'take_message') {
    state.takingMessage = { ...req, since: turn.nowMs };
  }
}

/** The customer's message out of hours is passed on to the people who will be back. */
export function passOnMessage(turn: Turn, text: string): void {
  const taking = turn.state.takingMessage;
  if (!taking) return;
  sayOutcome(turn, 'message_taken', taking.reason);
  handOver(turn, { ...taking, words: text || taking.words });
}

/** Opening time: a queued escalation goes to the agents now. */
export function releaseQueued(turn: Turn): boolean {
  const pending = turn.state.pendingEscalation;
  if (pending?.status !== 'queued' || turn.state.mode !== 'bot') return false;
  const { since: _s, status: _st, releaseAt: _r, ...req } = pending;
  delete turn.state.pendingEscalation;
  sayOutcome(turn, 'released', req.reason);
  handOver(turn, req);
  return true;
}
