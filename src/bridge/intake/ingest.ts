import { pushedMentionSchema, type Mention } from '../../engage/index.js';
import type { Store } from '../../storage/index.js';
import { classifyMention, type ClassifyOptions, type InboundItem, type InboundPayload } from './inbound-item.js';
import { knownBotUser, ownByAuthorName } from '../ownership/own-echo.js';
import type { SeenMentions } from './seen-mentions.js';

/** What is kept of an inbound text: the store's transcript line limit (its default), applied at arrival. */
export const INBOUND_TEXT_MAX_CHARS = 2000;

/** Cuts a long text at arrival, so a multi-megabyte message never sits in the store while it waits. */
export function capPayload(payload: InboundPayload, maxChars = INBOUND_TEXT_MAX_CHARS): InboundPayload {
  if (payload.kind === 'agent-action' || payload.text.length <= maxChars) return payload;
  return { ...payload, text: `${payload.text.slice(0, maxChars - 1)}…` };
}

export interface IngestResult {
  /** Mentions never seen before, now recorded. */
  readonly recorded: number;
  /** Mentions already recorded (a repeat from the overlap, or webhook and poll both delivering). */
  readonly repeated: number;
  /** Items that are not ours to act on (other channels, public posts). */
  readonly ignored: number;
  /** Items recorded as history by a baseline read: seen, never answered. */
  readonly history: number;
  /** Newest `date.added` (UNIX seconds) among the mentions, for the poll cursor. */
  readonly newestAddedAt: number | undefined;
}

/**
 * Records mentions by topic and id before anything acts on them (at-least-once in, exactly-once acted on), then asks for
 * each touched contact's worker. A topic's baseline read passes `historyBefore`: what it shows is recorded as seen
 * and processed, so it is never answered; no timestamp is compared with our clock here.
 */
export async function ingestMentions(
  store: Store,
  mentions: readonly Mention[],
  o: ClassifyOptions & {
    /** Items added before this (UNIX seconds; `Infinity`: all) are history, recorded but never answered. */
    historyBefore?: number;
    schedule: (key: string) => void;
    /** Longest inbound text kept (characters); default INBOUND_TEXT_MAX_CHARS. */
    maxTextChars?: number;
    /** Told of every customer message read that is not history (new or again), for `poller-recheck.ts`. */
    watch?: (item: InboundItem) => void;
    /**
     * Mentions the list read found recorded already (`MentionPage.known`): repeats without asking the store again. A
     * recorded mention stays recorded (its seen id outlives the poll's reach), so the answer given a moment ago holds.
     */
    known?: ReadonlySet<Mention>;
    /** The bridge's memory of recorded mentions: asked instead of the store, and told of each durable record. */
    seen?: SeenMentions;
  },
): Promise<IngestResult> {
  let ignored = 0;
  let repeated = 0;
  let historyCount = 0;
  let newest: number | undefined;
  const records: Array<Promise<boolean>> = [];
  // Only a reply action or a mention not known recorded can need the bot's user: a page a poll reads again (its
  // overlap) needs none, and the read was a store call per page.
  const bot = mentions.some((m) => o.known?.has(m) !== true || (m.actions?.length ?? 0) > 0) ? await knownBotUser({ store }) : undefined;
  const { seen } = o;
  const seenBefore = (topicId: string, id: string): boolean | Promise<boolean> =>
    seen ? seen.has(topicId, id) : store.hasSeen(topicId, id);
  // Resolves once the record is durable (new or not): only then is it remembered as recorded.
  const record = (item: InboundItem): Promise<boolean> =>
    store
      .recordInbound({
        id: item.id,
        topicId: item.topicId,
        key: item.key,
        addedAt: item.addedAt,
        payload: capPayload(item.payload, o.maxTextChars),
      })
      .then((isNew) => {
        seen?.recorded(item.topicId, item.id);
        return isNew;
      });
  for (const m of mentions) {
    const added = m.date?.added ?? undefined;
    if (added !== undefined && added !== null) newest = Math.max(newest ?? added, added);
    const items = classifyMention(m, o).flatMap((i) => asSeenFromBot(i, bot?.id));
    if (items.length === 0) ignored++;
    // Only the mention itself was looked up: a person's reply action on it is an item with an id of its own.
    const knownMention = o.known?.has(m) === true;
    for (const item of items) {
      const history = o.historyBefore !== undefined && item.addedAt < o.historyBefore;
      if (item.payload.kind === 'customer' && !history) o.watch?.(item);
      if (knownMention && item.id === m.id) {
        repeated++;
        continue;
      }
      const seenRef = seenBefore(item.topicId, item.id);
      if (seenRef === true || (await seenRef)) {
        repeated++;
        continue;
      }
      // The bot's own reply coming back (every answer's echo, read by the next poll) asks nothing of the contact's
      // worker, whose run for it would be a whole round (and a conversation write) per answer; the worker decides
      // it the same way (`recogniseOwnEcho`) when it cannot be told here.
      const ownEcho = item.payload.kind === 'account' && ownByAuthorName(bot, item.payload.authorName) === true;
      if (history || ownEcho) {
        // Recorded and marked processed in the same turn (both apply in memory at once): no worker can pick it up.
        records.push(record(item).then((isNew) => isNew && !history));
        await store.markInboundProcessed(item.topicId, item.id);
        if (history) historyCount++;
        continue;
      }
      // Recorded in memory at once; every record of the page shares one durable write.
      records.push(record(item));
      // Safe before the write is done: nothing is performed before a later (or the same) write that holds it.
      o.schedule(item.key);
    }
  }
  // Returns once every record is on disk (the webhook answers only then; the poller moves its cursor only then).
  const outcomes = await Promise.all(records);
  const recorded = outcomes.filter(Boolean).length;
  repeated += outcomes.length - historyCount - recorded;
  return { recorded, repeated, ignored, history: historyCount, newestAddedAt: newest };
}

/**
 * A reply action is a person taking over only when its user is positively not the bot's: the bot's own user is
 * known and the action names another. The service may show the bot's own replies as reply actions too (dropped when
 * they name the bot's user); one naming no user, or read while the bot's user is still unknown (publish answers
 * without `user_id`: issue 26), may be the bot's own. Such an action is kept as the account having written to the
 * customer with nothing to tell who: the worker reads the handover item (the described signal), never POSTs it.
 */
function asSeenFromBot(item: InboundItem, botUserId: string | undefined): InboundItem[] {
  if (item.payload.kind !== 'agent-action') return [item];
  const { userId } = item.payload;
  if (botUserId !== undefined && userId === botUserId) return [];
  if (botUserId !== undefined && userId !== undefined) return [item];
  return [{ ...item, payload: { kind: 'account', text: '' } }];
}

/**
 * Reads a webhook body (the service's automation-rule push: a JSON array of mentions), tolerant per item: each is
 * checked for what the bridge reads of it (`pushedMentionSchema`).
 */
export function parseWebhookBody(body: unknown): { mentions: Mention[]; invalid: number } | { error: string } {
  if (!Array.isArray(body)) return { error: 'expected a JSON array of mention items' };
  const mentions: Mention[] = [];
  let invalid = 0;
  for (const item of body) {
    const parsed = pushedMentionSchema.safeParse(item);
    // An empty id could never be recorded or answered: it is invalid, not "accepted".
    if (parsed.success && parsed.data.id !== '' && parsed.data.topic_id !== '') mentions.push(parsed.data);
    else invalid++;
  }
  if (mentions.length === 0 && invalid > 0) return { error: `none of the ${invalid} items is a mention (each needs id and topic_id)` };
  return { mentions, invalid };
}
