import { callsPerAnswer } from './endpoint-name.js';
import { callsAbout, contactOf, isHandoverToAgents } from './contact-calls.js';
import { sendBurst, sendPaced, type Contact, type SentMessage } from './load-driver.js';
import type { LogTail } from './log-tail.js';
import { waitForReplies, firstBotReplies, type Answered } from './replies.js';
import type { OutboundEntry, RequestEntry, SimClient } from './sim-client.js';

export interface PhaseContext {
  readonly sim: SimClient;
  readonly outbound: LogTail<OutboundEntry>;
  readonly requests: LogTail<RequestEntry>;
  /** How long without a new answer before the rest counts as unanswered. */
  readonly stallMs: number;
  /** The longest a phase waits for answers after its last message, whatever the progress. */
  readonly phaseDeadlineMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface PhaseResult {
  readonly sent: SentMessage[];
  readonly answered: Answered;
  readonly startedAt: number;
  /** API calls made while the phase ran (polls included), from the simulator's log. */
  readonly requests: RequestEntry[];
}

async function measured(ctx: PhaseContext, drive: () => Promise<SentMessage[]>): Promise<PhaseResult> {
  await ctx.requests.catchUp();
  const before = ctx.requests.last;
  const startedAt = Date.now();
  const sent = await drive();
  const answered = await waitForReplies(ctx.outbound, sent, { stallMs: ctx.stallMs, deadlineMs: ctx.phaseDeadlineMs });
  await ctx.requests.catchUp();
  const requests = ctx.requests.entries.filter((r) => r.seq > before);
  return { sent, answered, startedAt, requests };
}

/** Everything at once: how many answers per second the bridge gets through. */
export function burstPhase(ctx: PhaseContext, contacts: readonly Contact[], rounds: number, text: (r: number) => string, firstRound = 0) {
  return measured(ctx, () => sendBurst(ctx.sim, contacts, rounds, text, 16, firstRound));
}

/** A steady rate: the latency a customer sees, and the calls each answer costs at steady state. */
export function pacedPhase(
  ctx: PhaseContext,
  contacts: readonly Contact[],
  rounds: number,
  text: (r: number) => string,
  perSecond: number,
  firstRound = 0,
) {
  return measured(ctx, () => sendPaced(ctx.sim, contacts, rounds, text, perSecond, ctx.sleep, firstRound));
}

export function throughputOf(p: PhaseResult): number | null {
  if (p.answered.answered === 0 || p.answered.lastReplyAt === undefined) return null;
  const seconds = Math.max(0.001, (p.answered.lastReplyAt - p.startedAt) / 1000);
  return Math.round((p.answered.answered / seconds) * 10) / 10;
}

export function callsPerAnswerOf(p: PhaseResult) {
  return callsPerAnswer(p.requests, p.answered.answered);
}

export interface EscalationResult {
  readonly contacts: number;
  /** Handed to agents (a handover POST seen). */
  readonly escalated: number;
  /** Answered but not handed over: queued for opening time (or the bridge chose not to). */
  readonly queuedOrAnswered: number;
  /** Calls about those contacts from the "agent" message until its handover, per escalation. */
  readonly callsPerEscalation: number | null;
  readonly byEndpoint: Record<string, number>;
}

/**
 * Contacts that already talked to the bot ask for a person. Counts the calls about each contact from that
 * message until its handover (polls are shared and reported with the steady-state figure instead).
 */
export async function escalationPhase(ctx: PhaseContext, contacts: readonly Contact[]): Promise<EscalationResult> {
  const warm = await sendBurst(ctx.sim, contacts, 1, () => 'hello');
  await waitForReplies(ctx.outbound, warm, { stallMs: ctx.stallMs, deadlineMs: ctx.phaseDeadlineMs });
  await ctx.requests.catchUp();
  const before = ctx.requests.last;
  const asks = await sendBurst(ctx.sim, contacts, 1, () => 'I want to talk to an agent please');
  const ids = new Set(contacts.map((c) => c.id));
  const mentionContacts = new Map([...warm, ...asks].map((m) => [m.mentionId, m.contact]));
  const handedOver = () =>
    new Set(ctx.requests.entries.filter((r) => r.seq > before && isHandoverToAgents(r)).map((r) => contactOf(r, mentionContacts)));
  const deadline = Date.now() + ctx.stallMs;
  for (;;) {
    await ctx.requests.catchUp();
    await ctx.outbound.catchUp();
    const replied = firstBotReplies(ctx.outbound.entries);
    const complete = handedOver().size >= ids.size && asks.every((m) => replied.has(m.mentionId));
    if (complete || Date.now() > deadline) break;
    await ctx.sleep(20);
  }
  const requests = ctx.requests.entries.filter((r) => r.seq > before);
  const about = requests.filter((r) => ids.has(contactOf(r, mentionContacts) ?? ''));
  const escalated = handedOver().size;
  const byEndpoint = callsPerAnswer(about, Math.max(1, escalated)).byEndpoint;
  return {
    contacts: contacts.length,
    escalated,
    queuedOrAnswered: contacts.length - escalated,
    callsPerEscalation: escalated === 0 ? null : Math.round((callsAbout(requests, ids, mentionContacts) / escalated) * 100) / 100,
    byEndpoint,
  };
}
