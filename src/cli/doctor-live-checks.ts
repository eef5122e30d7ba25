import { z } from 'zod';
import { NotFoundError, type ChannelServices, type EngageClient } from '../engage/index.js';
import { handoverServiceOf, sourceServiceOf } from '../engage/channel-services.js';
import { MENTION_LIST_PROBES, type MentionListProbeName } from '../bridge/intake/mention-list-probes.js';
import { sourceFilter } from '../bridge/intake/poller-pages.js';
import { attempt, why } from './doctor-attempt.js';
import { fail, pass, skip, type Check } from './doctor-checklist.js';

/**
 * `doctor --live` (issue 26 part 2): reads the account and checks, one line each, every guess about the service the
 * bridge makes beyond `engage-api.md` that a read can show. Each line says what holds or what does not, and what in
 * the bridge adapts to it. Nothing is written. The answers are read raw (the envelope's `response`), before the
 * client's tolerant parsing, so a loose shape shows here even where the bridge reads through it.
 */
export type LiveEngage = Pick<EngageClient, 'raw' | 'mentions' | 'topics'>;

export interface LiveOptions {
  readonly nowMs: number;
  readonly channels: readonly string[];
  readonly channelServices: ChannelServices;
  /** ENGAGE_TOPIC_IDS; undefined: every topic of the account. */
  readonly topicIds: readonly string[] | undefined;
  /** BRIDGE_BUSINESS_HOURS_SCHEDULE (id or name); undefined: the first schedule. */
  readonly schedule: string | undefined;
}

// Only the fields these checks read; everything else is let through.
const looseRecord = z.record(z.string(), z.unknown());
const listed = z.object({ data: z.array(looseRecord).catch([]) }).passthrough();

async function readList(engage: LiveEngage, template: string, params: Record<string, string | number> = {}) {
  const answer = await engage.raw({ method: 'GET', template, params });
  const body = JSON.parse(answer.body) as { response?: unknown };
  const response = Array.isArray(body.response) ? { data: body.response } : body.response;
  return listed.parse(response ?? {}).data;
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** What the poller does when each mentions-list guess does not hold (`poller-list-mode.ts`). */
const LIST_ADAPTS: Record<MentionListProbeName, { readonly name: string; readonly adapts: string }> = {
  'mentions-window': {
    name: 'live: the mentions list honours the window (date_from)',
    adapts: 'the poller reads newest first and stops at its cursor instead of re-reading old pages',
  },
  'mentions-order': {
    name: 'live: the mentions list honours the order (sort=dateadd:asc)',
    adapts: 'the poller reads newest first and stops at its cursor, then hands each contact its messages oldest first',
  },
  'mentions-filter': {
    name: 'live: the mentions list honours the source filter (filter=source:…)',
    adapts: 'the poller sends no filter and sorts the sources itself',
  },
  'mentions-topics': {
    name: 'live: the mentions list honours topic_ids',
    adapts: 'set ENGAGE_TOPIC_IDS to one topic per bridge, or expect other topics’ mentions to be read and skipped',
  },
  'mentions-limit': {
    name: 'live: the mentions list honours limit',
    adapts: 'the poll takes the service’s page size; its pages are read to the end as before',
  },
};

async function mentionListChecks(engage: LiveEngage, o: LiveOptions, topicIds: readonly string[]): Promise<Check[]> {
  const sources = new Map(o.channels.map((c) => [sourceServiceOf(o.channelServices, c), c]));
  const x = { nowMs: o.nowMs, topicIds, filter: sourceFilter(sources), sources: [...sources.keys()] };
  const checks: Check[] = [];
  for (const [probeName, probe] of Object.entries(MENTION_LIST_PROBES) as Array<
    [MentionListProbeName, (e: LiveEngage, y: typeof x) => Promise<{ holds: boolean; detail: string }>]
  >) {
    const { name, adapts } = LIST_ADAPTS[probeName];
    const found = await attempt(() => probe(engage, x));
    if (!found.ok) checks.push(fail(name, `could not read the mentions list: ${why(found.error)}`));
    else if (found.value.holds) checks.push(pass(name, found.value.detail));
    else checks.push(fail(name, `${found.value.detail}; ${adapts}`));
  }
  return checks;
}

/** Recent mentions of the watched topics, raw, newest first as the service lists them. */
async function recentMentions(engage: LiveEngage, topicIds: readonly string[]) {
  return readList(engage, '/{account_id}/inbox/mentions', { topic_ids: topicIds.join(','), limit: 20 });
}

function mentionFieldsCheck(mentions: readonly Record<string, unknown>[]): Check {
  const name = 'live: mention date fields are numbers (date.added)';
  if (mentions.length === 0) return skip(name, 'no mention on the watched topics yet: write one message, then run again');
  const texts = mentions.filter((m) => typeof asRecord(m.date)?.added !== 'number');
  if (texts.length === 0) return pass(name, `${mentions.length} recent mention(s) carry date.added as UNIX seconds`);
  const sample = JSON.stringify(asRecord(texts[0]?.date)?.added ?? null);
  return fail(
    name,
    `${texts.length} of ${mentions.length} recent mention(s) carry date.added as ${sample}, not a number: the bridge reads only the fields it uses and turns numeric text into numbers (issue 26 item 5); a mention it cannot date is skipped and counted (engage_bridge_skipped_items_total)`,
  );
}

/** A customer's contact from the recent mentions, on a served channel: `{channel, service, id}`. */
function customerContact(mentions: readonly Record<string, unknown>[], o: LiveOptions) {
  const channelOf = new Map(o.channels.map((c) => [sourceServiceOf(o.channelServices, c), c]));
  for (const m of mentions) {
    const source = asRecord(m.source);
    const author = asRecord(m.author);
    const channel = channelOf.get(String(source?.service ?? ''));
    if (!channel || author?.managed === true || author?.id === undefined) continue;
    return { channel, service: handoverServiceOf(o.channelServices, channel), id: String(author.id) };
  }
  return undefined;
}

async function handoverChecks(engage: LiveEngage, mentions: readonly Record<string, unknown>[], o: LiveOptions): Promise<Check[]> {
  const fields = 'live: handover items show the owner and its date (date.updated)';
  const exists = 'live: a contact never handed over has a handover item (GET answers, not 404)';
  const contact = customerContact(mentions, o);
  if (!contact) {
    const why = 'no customer message on a served channel yet to read a handover item for';
    return [skip(fields, why), skip(exists, why)];
  }
  const at = `${contact.service}/${contact.id}`;
  try {
    const answer = await engage.raw({
      method: 'GET',
      template: '/{account_id}/inbox/handover/{service}/{service_id}',
      pathValues: { service: contact.service, service_id: contact.id },
    });
    const item = asRecord((JSON.parse(answer.body) as { response?: unknown }).response) ?? {};
    const date = asRecord(item.date);
    const checks = [pass(exists, `GET handover ${at} answered`)];
    if (date && 'updated' in date) {
      checks.unshift(pass(fields, `${at}: owner ${String(item.owner)}, date.updated ${JSON.stringify(date.updated)}`));
    } else {
      checks.unshift(
        fail(
          fields,
          `${at} shows owner ${String(item.owner)} and no date.updated: the bridge cannot tell "never handed over" from "held by people", so it never claims a contact whose item says agents (issue 26 item 1); such contacts stay with people until they hand them back`,
        ),
      );
    }
    return checks;
  } catch (err) {
    if (err instanceof NotFoundError) {
      return [
        skip(fields, `${at} has no handover item to read`),
        fail(
          exists,
          `GET handover ${at} answered 404: a first contact's message is left with people with a note saying why, and the contact is never claimed (issue 26 item 6); ask Engage whether the handover endpoints are enabled for this channel`,
        ),
      ];
    }
    const said = `could not read the handover item of ${at}: ${why(err)}`;
    return [fail(fields, said), skip(exists, 'not judged (see above)')];
  }
}

async function publisherMentionCheck(engage: LiveEngage): Promise<Check> {
  const name = 'live: publisher mentions name the publishing user (user_id)';
  const read = await attempt(() => readList(engage, '/{account_id}/publisher/mentions', { limit: 20 }));
  if (!read.ok) return fail(name, `could not read publisher/mentions: ${why(read.error)}`);
  if (read.value.length === 0) return skip(name, 'nothing published from this account yet: `--test-contact` publishes one reply to check');
  const without = read.value.filter((p) => p.user_id === undefined || p.user_id === null || p.user_id === '');
  if (without.length === 0) return pass(name, `${read.value.length} recent publisher mention(s) carry user_id`);
  return fail(
    name,
    `${without.length} of ${read.value.length} recent publisher mention(s) carry no user_id: the bridge recognises its own echoes by its reply services' author ids and its own texts, and reads the handover item (GET) before taking any account message for a person's (issue 26 item 2)`,
  );
}

async function cannedTypesCheck(engage: LiveEngage): Promise<Check> {
  const name = 'live: canned-response types are lower case (buttons, text)';
  const read = await attempt(() => readList(engage, '/{account_id}/settings/canned_responses'));
  if (!read.ok) return fail(name, `could not read the canned responses: ${why(read.error)}`);
  const types = [...new Set(read.value.map((c) => c.type).filter((t): t is string => typeof t === 'string'))];
  if (types.length === 0) return skip(name, 'the account has no canned response with a type');
  const odd = types.filter((t) => t !== t.toLowerCase());
  if (odd.length === 0) return pass(name, `types seen: ${types.join(', ')}`);
  return fail(
    name,
    `types seen: ${types.join(', ')}: the bridge reads them case-tolerantly (issue 26 item 6), so menus keep their buttons`,
  );
}

const DAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

async function weekdayCheck(engage: LiveEngage, schedule: string | undefined): Promise<Check> {
  const name = 'live: schedule weekdays count from Sunday = 0';
  const read = await attempt(() => readList(engage, '/{account_id}/settings/businesshoursschedules', { limit: 200 }));
  if (!read.ok) return fail(name, `could not read the business hours schedules: ${why(read.error)}`);
  const chosen = schedule === undefined ? read.value[0] : read.value.find((s) => String(s.id) === schedule || String(s.name) === schedule);
  if (!chosen) return skip(name, schedule === undefined ? 'the account has no schedule' : `no schedule "${schedule}"`);
  const periods = Array.isArray(chosen.periods) ? chosen.periods.map(asRecord) : [];
  const days = [...new Set(periods.map((p) => Number(p?.dayofweek)).filter((d) => Number.isInteger(d)))].sort((a, b) => a - b);
  const label = `schedule #${String(chosen.id)} "${String(chosen.name ?? '')}"`;
  if (days.length === 0) return skip(name, `${label} has no periods`);
  const read0 = days.map((d) => DAY[d] ?? `day ${d}`).join(', ');
  if (days.some((d) => d < 0 || d > 6)) {
    return fail(name, `${label} numbers its days ${days.join(', ')}: 7 is beyond 0 = Sunday .. 6 = Saturday, so the account counts from 1`);
  }
  // A working week of five days in a row is Monday..Friday; read from Sunday = 0 that is 1..5.
  const run = days.length === 5 && days.every((d, i) => i === 0 || d === (days[i - 1] ?? 0) + 1);
  if (run && days[0] !== 1) {
    return fail(
      name,
      `${label} is open on days ${days.join(', ')}, read from Sunday = 0 as ${read0}: a working week read as that suggests the account counts from ${days[0] === 0 ? 'Monday = 0' : 'Sunday = 1'}; check the hours the bot tells customers (\`cmd "hours"\`) against the tool`,
    );
  }
  return pass(name, `${label} read from Sunday = 0: ${read0} (Monday = 1 numbering reads the same for a working week)`);
}

async function topicPagingCheck(engage: LiveEngage): Promise<Check> {
  const name = 'live: topics fit on one page';
  const first = await attempt(() => readList(engage, '/{account_id}/settings/topics'));
  const all = await attempt(() => engage.topics.all());
  if (!first.ok || !all.ok)
    return fail(name, `could not read the topics: ${why(first.ok ? (all as { error: unknown }).error : first.error)}`);
  if (first.value.length >= all.value.length) return pass(name, `${all.value.length} topic(s) on the first page`);
  return fail(
    name,
    `the first page lists ${first.value.length} of ${all.value.length} topics: the bridge reads every page (issue 26 item 6)`,
  );
}

/** Every reading check of `doctor --live`, one line each. */
export async function liveChecks(engage: LiveEngage, o: LiveOptions): Promise<Check[]> {
  let topicIds = o.topicIds;
  if (topicIds === undefined) {
    const topics = await attempt(() => engage.topics.all());
    if (!topics.ok) return [fail('live: read the topics', why(topics.error))];
    topicIds = topics.value.map((t) => String(t.id));
  }
  const mentions = await attempt(() => recentMentions(engage, topicIds));
  const recent = mentions.ok ? mentions.value : [];
  return [
    ...(mentions.ok ? [] : [fail('live: read the recent mentions', why(mentions.error))]),
    mentionFieldsCheck(recent),
    ...(await mentionListChecks(engage, o, topicIds)),
    ...(await handoverChecks(engage, recent, o)),
    await publisherMentionCheck(engage),
    await cannedTypesCheck(engage),
    await weekdayCheck(engage, o.schedule),
    await topicPagingCheck(engage),
  ];
}
