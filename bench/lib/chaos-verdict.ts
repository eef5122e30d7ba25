import type { DriverEvent, MessageEvent } from './chaos-events.js';
import { driverPos, OwnershipTimeline } from './ownership-timeline.js';
import type { OutboundEntry, RequestEntry } from './sim-client.js';

/** The campaign's outcome counts; see bench/README.md for the exact definitions. Targets: lost, doubled, talk_over = 0. */
export interface Verdict {
  readonly messages: number;
  readonly answered: number;
  readonly escalated: number;
  readonly lost: number;
  readonly doubled: number;
  readonly talk_over: number;
  readonly details: {
    /** Of `lost`: those with no moment at all, until the end of the run, when people held the contact or an escalation was open. */
    readonly lost_even_allowing_late_processing: number;
    /** Bot replies published after a reply to a later message of the same customer (answers out of order). */
    readonly replies_out_of_order: number;
    readonly talk_over_races: number;
    readonly mentions_with_several_replies: number;
    readonly unplaced_bot_messages: number;
    /**
     * Answered messages: from the simulator taking the message to the log reader seeing the bot's first reply to
     * it (includes the reader's polling, ≤ 0.5 s). Null when the run kept no times.
     */
    readonly wait_ms: { readonly median: number; readonly worst: number } | null;
    readonly lost_mentions: string[];
    readonly doubled_mentions: string[];
    readonly talk_over_mentions: string[];
  };
}

function contactOfOutbound(e: OutboundEntry): string | undefined {
  return e.recipient?.service_id ?? e.services[0]?.service_id;
}

/**
 * Where each bot message went out in the request log: the successful `publisher/add` calls for its mention and
 * text (a malformed-body fault logs a 200 that published nothing, so the last matching calls are the real ones).
 */
function publishPositions(requests: readonly RequestEntry[], bot: readonly OutboundEntry[]): Map<OutboundEntry, number> {
  const calls = new Map<string, number[]>();
  for (const r of requests) {
    if (r.method !== 'POST' || !r.path.endsWith('/publisher/add') || r.status !== 200) continue;
    const key = `${r.params.mention_id ?? ''}\u0000${r.params.message ?? ''}`;
    (calls.get(key) ?? calls.set(key, []).get(key)!).push(r.seq);
  }
  const groups = new Map<string, OutboundEntry[]>();
  for (const e of bot) {
    const key = `${e.mention_id ?? ''}\u0000${e.message.slice(0, 2000)}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(e);
  }
  const positions = new Map<OutboundEntry, number>();
  for (const [key, entries] of groups) {
    const found = calls.get(key) ?? [];
    const last = found.slice(Math.max(0, found.length - entries.length));
    entries.forEach((e, i) => {
      const at = last[i - (entries.length - last.length)];
      if (at !== undefined) positions.set(e, at);
    });
  }
  return positions;
}

/**
 * How long the brain treats "the bot owns it" as a handover still in flight after it escalated
 * (`conversation.handover_grace_minutes` of config/flows.yaml).
 */
export const HANDOVER_GRACE_SECONDS = 5 * 60;

/**
 * Escalations the bridge started, per contact, as request-log spans: from its update of the customer's mention
 * (the note for the agent; every escalation writes one) until the bot next spoke to that customer, or the
 * handover grace ran out. While one is open the bot rightly stays silent: the customer waits for a person.
 */
function pendingEscalations(
  requests: readonly RequestEntry[],
  mentionContact: ReadonlyMap<string, string>,
  botPublishes: ReadonlyMap<string, number[]>,
  graceSeconds: number,
): Map<string, Array<[number, number]>> {
  const spans = new Map<string, Array<[number, number]>>();
  for (const r of requests) {
    const m = /^\/[^/]+\/inbox\/mention\/[^/]+\/([^/]+)$/.exec(r.path);
    const contact = m ? mentionContact.get(m[1]!) : undefined;
    if (!contact || r.method !== 'POST' || r.status !== 200) continue;
    const nextBot = (botPublishes.get(contact) ?? []).find((p) => p > r.seq) ?? Number.POSITIVE_INFINITY;
    const graceEnd = requests.find((x) => x.seq > r.seq && x.date >= r.date + graceSeconds)?.seq ?? Number.POSITIVE_INFINITY;
    (spans.get(contact) ?? spans.set(contact, []).get(contact)!).push([r.seq, Math.min(nextBot, graceEnd)]);
  }
  return spans;
}

/** Judges a campaign from the simulator's logs and what the driver did. Pure: no I/O. */
export function judgeCampaign(
  events: readonly DriverEvent[],
  requests: readonly RequestEntry[],
  outbound: readonly (OutboundEntry & { readonly seenAt?: number })[],
  graceSeconds = HANDOVER_GRACE_SECONDS,
): Verdict {
  const timeline = new OwnershipTimeline(requests, events);
  const pos = new Map<DriverEvent, number>(events.map((e, i) => [e, driverPos(e.before, i, events.length)]));
  const messages = events.filter((e): e is MessageEvent => e.kind === 'message');
  const bot = outbound.filter((e) => e.author === 'bot');
  const positions = publishPositions(requests, bot);
  const byMention = new Map<string, OutboundEntry[]>();
  for (const e of bot)
    if (e.mention_id !== null)
      (byMention.get(String(e.mention_id)) ?? byMention.set(String(e.mention_id), []).get(String(e.mention_id))!).push(e);
  const agentActs = events.filter((e): e is Exclude<DriverEvent, MessageEvent> => e.kind === 'agent-reply');
  const botPublishes = new Map<string, number[]>();
  for (const [e, p] of positions) {
    const c = contactOfOutbound(e);
    if (c !== undefined) (botPublishes.get(c) ?? botPublishes.set(c, []).get(c)!).push(p);
  }
  for (const list of botPublishes.values()) list.sort((a, b) => a - b);
  const pending = pendingEscalations(requests, new Map(messages.map((m) => [m.mentionId, m.contact])), botPublishes, graceSeconds);

  let answered = 0;
  let escalated = 0;
  let lostAnyway = 0;
  const lost: string[] = [];
  for (const m of messages) {
    if (byMention.has(m.mentionId)) {
      answered++;
      continue;
    }
    // The bot went on to answer a later message of the same customer (or never spoke again): the span in which
    // people must have held the contact for this silence to be theirs.
    const later = messages.filter((x) => x.contact === m.contact && Number(x.mentionId) > Number(m.mentionId));
    const laterReplies = later
      .flatMap((x) => byMention.get(x.mentionId) ?? [])
      .map((e) => positions.get(e))
      .filter((p): p is number => p !== undefined);
    const end = laterReplies.length > 0 ? Math.min(...laterReplies) : Number.POSITIVE_INFINITY;
    const at = pos.get(m)!;
    const peopleUntil = (until: number) =>
      timeline.peopleHeldBetween(m.contact, at, until) ||
      agentActs.some((a) => a.contact === m.contact && pos.get(a)! > at && a.before < until) ||
      (pending.get(m.contact) ?? []).some(([from, to]) => from < until && to > at);
    if (peopleUntil(end)) escalated++;
    else {
      lost.push(m.mentionId);
      if (!peopleUntil(Number.POSITIVE_INFINITY)) lostAnyway++;
    }
  }

  const doubled: string[] = [];
  let several = 0;
  for (const [mention, entries] of byMention) {
    if (entries.length > 1) several++;
    const texts = entries.map((e) => e.message);
    if (new Set(texts).size < texts.length) doubled.push(mention);
  }

  let races = 0;
  let unplaced = 0;
  const talkOver: string[] = [];
  for (const e of bot) {
    const contact = contactOfOutbound(e);
    const pos = positions.get(e);
    if (contact === undefined || pos === undefined) {
      unplaced++;
      continue;
    }
    const mark = timeline.markAt(contact, pos);
    if (mark?.owner !== 'agents') continue;
    // The bridge knew (its own handover, the service's answer to its check, or it asked the service after the
    // take) yet spoke: talk-over. Otherwise it spoke on an owner it had confirmed just before the take: a race.
    if (mark.by !== 'service' || timeline.checkedBetween(contact, mark.pos, pos)) talkOver.push(String(e.mention_id));
    else races++;
  }

  let outOfOrder = 0;
  const newestAnswered = new Map<string, number>();
  for (const e of bot) {
    const c = contactOfOutbound(e);
    if (c === undefined || e.mention_id === null) continue;
    const id = Number(e.mention_id);
    if (id < (newestAnswered.get(c) ?? 0)) outOfOrder++;
    else newestAnswered.set(c, id);
  }

  const waits = messages
    .map((m) => {
      const seen = (byMention.get(m.mentionId) ?? []).map((e) => (e as { seenAt?: number }).seenAt).filter((t) => t !== undefined);
      return m.sentAt === undefined || seen.length === 0 ? undefined : Math.min(...seen) - m.sentAt;
    })
    .filter((w): w is number => w !== undefined)
    .sort((a, b) => a - b);
  return {
    messages: messages.length,
    answered,
    escalated,
    lost: lost.length,
    doubled: doubled.length,
    talk_over: talkOver.length,
    details: {
      lost_even_allowing_late_processing: lostAnyway,
      replies_out_of_order: outOfOrder,
      talk_over_races: races,
      mentions_with_several_replies: several,
      unplaced_bot_messages: unplaced,
      wait_ms: waits.length === 0 ? null : { median: waits[Math.floor(waits.length / 2)]!, worst: waits[waits.length - 1]! },
      lost_mentions: lost.slice(0, 50),
      doubled_mentions: doubled.slice(0, 50),
      talk_over_mentions: talkOver.slice(0, 50),
    },
  };
}
