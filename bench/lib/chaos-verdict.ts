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
    readonly talk_over_races: number;
    readonly mentions_with_several_replies: number;
    readonly unplaced_bot_messages: number;
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

/** Judges a campaign from the simulator's logs and what the driver did. Pure: no I/O. */
export function judgeCampaign(events: readonly DriverEvent[], requests: readonly RequestEntry[], outbound: readonly OutboundEntry[]): Verdict {
  const timeline = new OwnershipTimeline(requests, events);
  const pos = new Map<DriverEvent, number>(events.map((e, i) => [e, driverPos(e.before, i, events.length)]));
  const messages = events.filter((e): e is MessageEvent => e.kind === 'message');
  const bot = outbound.filter((e) => e.author === 'bot');
  const positions = publishPositions(requests, bot);
  const byMention = new Map<string, OutboundEntry[]>();
  for (const e of bot) if (e.mention_id !== null) (byMention.get(String(e.mention_id)) ?? byMention.set(String(e.mention_id), []).get(String(e.mention_id))!).push(e);
  const agentActs = events.filter((e): e is Exclude<DriverEvent, MessageEvent> => e.kind === 'agent-reply');

  let answered = 0;
  let escalated = 0;
  const lost: string[] = [];
  for (const m of messages) {
    if (byMention.has(m.mentionId)) {
      answered++;
      continue;
    }
    // The bot went on to answer a later message of the same customer (or never spoke again): the span in which
    // people must have held the contact for this silence to be theirs.
    const later = messages.filter((x) => x.contact === m.contact && Number(x.mentionId) > Number(m.mentionId));
    const laterReplies = later.flatMap((x) => byMention.get(x.mentionId) ?? []).map((e) => positions.get(e)).filter((p): p is number => p !== undefined);
    const end = laterReplies.length > 0 ? Math.min(...laterReplies) : Number.POSITIVE_INFINITY;
    const at = pos.get(m)!;
    const people = timeline.peopleHeldBetween(m.contact, at, end)
      || agentActs.some((a) => a.contact === m.contact && pos.get(a)! > at && a.before < end);
    if (people) escalated++;
    else lost.push(m.mentionId);
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
    // The bridge knew (its own handover, or it asked the service after the take) yet spoke: talk-over.
    // Otherwise it spoke on an owner it had confirmed just before the take: a race, counted apart.
    if (mark.by === 'bridge' || timeline.checkedBetween(contact, mark.pos, pos)) talkOver.push(String(e.mention_id));
    else races++;
  }

  return {
    messages: messages.length,
    answered,
    escalated,
    lost: lost.length,
    doubled: doubled.length,
    talk_over: talkOver.length,
    details: {
      talk_over_races: races,
      mentions_with_several_replies: several,
      unplaced_bot_messages: unplaced,
      lost_mentions: lost.slice(0, 50),
      doubled_mentions: doubled.slice(0, 50),
      talk_over_mentions: talkOver.slice(0, 50),
    },
  };
}
