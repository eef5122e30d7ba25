import { MalformedResponseError, type InvalidListItem, type PublisherMention } from '../../engage/index.js';
import type { BridgeEngage } from '../bridge-engage.js';
import { sharedReplyListing } from './shared-reply-listing.js';

/**
 * How far before the effect was stored the search starts. Only a search window (the answer is decided by ids):
 * wide, so that a service clock some minutes behind ours still falls inside it.
 */
const SEARCH_SLACK_MS = 15 * 60_000;
/**
 * Slack before the customer's mention's own `date.added` (same clock as the list): a reply cannot be older than the
 * mention it answers, and dates are whole seconds, so one second covers ties. (A minute here made every re-check
 * after a restart read about five pages of everyone's replies under load.)
 */
const SERVICE_SLACK_MS = 1_000;
/** Bounds of one re-check: list pages read (of PAGE_SIZE), publisher mentions fetched one by one, and time spent. */
export const RECHECK_LIMITS = { pages: 10, gets: 20, timeMs: 20_000 } as const;
const PAGE_SIZE = 100;

export type ReplyCheck =
  /** The reply is published: the publisher mention that answers the customer's mention. */
  | { readonly outcome: 'published'; readonly publisherMentionId: string }
  /** Every candidate in the window was looked at: it was not published. */
  | { readonly outcome: 'absent' }
  /** A bound was reached first: still unknown. */
  | { readonly outcome: 'unknown'; readonly why: string };

function textOf(message: unknown): string | undefined {
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object' && typeof (message as { content?: unknown }).content === 'string') {
    return (message as { content: string }).content;
  }
  return undefined;
}

/** The mention a listed publisher mention answers, when the list says so (the description does not promise it). */
function listedTarget(pm: Record<string, unknown>): string | undefined {
  const id = pm['mention_id'];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** Topics may share mention ids: an `in_reply_to` of another topic is another mention (#11.10). */
function sameTopic(target: { topic_id?: unknown }, topicId: string | undefined): boolean {
  const t = target.topic_id;
  return topicId === undefined || t === undefined || t === null || String(t) === topicId;
}

/**
 * Whether a publisher mention answering the customer's mention is the bot's own reply. By who published it: its
 * `user_id` against the bot's own user, when both are known. A reply of another user to the same mention (an agent
 * answering in the tool) is never the bot's, whatever its text. Without either id, the own-echo rule: the bot's
 * text is its trace; another text is neither proof of the bot's reply (an agent's) nor of its absence (a service may
 * render a canned response's text): undefined, in doubt.
 */
function ownReply(full: PublisherMention, reply: ReplyToFind, listedText: string | undefined): boolean | undefined {
  const raw = (full as { user_id?: unknown }).user_id;
  const by = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
  if (by !== undefined && by !== '' && reply.botUserId !== undefined) return by === reply.botUserId;
  return (textOf(full.message) ?? listedText) === reply.text ? true : undefined;
}

/** What one looked-up candidate decides: found, in doubt (`unsure`), or nothing (another mention or author). */
function judge(full: PublisherMention, reply: ReplyToFind, budget: { unsure: boolean }, listedText?: string): ReplyCheck | undefined {
  if (!full.in_reply_to || String(full.in_reply_to.id) !== reply.mentionId || !sameTopic(full.in_reply_to, reply.topicId)) return undefined;
  const own = ownReply(full, reply, listedText);
  if (own === true) return { outcome: 'published', publisherMentionId: String(full.id) };
  if (own === undefined) budget.unsure = true;
  return undefined;
}

/** Who the reply answers, and where the search starts. */
export type ReplyToFind = {
  mentionId: string;
  topicId?: string;
  text: string;
  /** The Engage user the bot publishes as, when known (`own-echo.ts`): only its replies are the bot's. */
  botUserId?: string;
} & (
  | {
      /** The customer's mention's `date.added` (the service's clock, the same as the list's): the narrow window. */
      serviceFromMs: number;
      /**
       * Our clock: when the attempt whose outcome is unknown ended (or the effect's last change). A listing that
       * began after it holds that attempt's reply, so it may be shared with other re-checks.
       */
      notBeforeMs?: number;
    }
  | { /** When the effect was stored (our clock): the wide fallback. */ sinceMs: number }
);

/** Looks at listed replies for the one answering the mention; `gets` counts the look-ups made (bounded). */
async function scan(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  reply: ReplyToFind,
  items: readonly PublisherMention[],
  fromMs: number,
  budget: { gets: number; deadline: number; looked: Set<string>; unsure: boolean },
  now: () => number,
): Promise<ReplyCheck | undefined> {
  // The same text first (the likeliest), then the others: a text is no proof either way (a service may send a canned
  // response's text, trim or render it), so a different text never rules a candidate out (issue 26).
  const ordered = [...items].sort((a, b) => Number(textOf(a.message) !== reply.text) - Number(textOf(b.message) !== reply.text));
  for (const pm of ordered) {
    const added = pm.date?.added;
    // A shared listing reaches further back than this mention: what is older cannot answer it.
    if (typeof added === 'number' && added * 1000 < fromMs) continue;
    // Looked up already (in a shared listing this re-check read before its own window).
    if (budget.looked.has(String(pm.id))) continue;
    const target = listedTarget(pm);
    if (target !== undefined && target !== reply.mentionId) continue;
    if (budget.gets >= RECHECK_LIMITS.gets || now() > budget.deadline) {
      return { outcome: 'unknown', why: `re-check stopped after ${budget.gets} look-ups` };
    }
    budget.gets++;
    budget.looked.add(String(pm.id));
    const found = judge(await engage.publisherMentions.get(pm.id), reply, budget, textOf(pm.message));
    if (found) return found;
  }
  return undefined;
}

/**
 * Listed items that could not be read: each is logged and counted by `onSkipped`. One with an id is looked up
 * alone (it may be the reply); without an id, or unreadable by itself too, it cannot be ruled out, so the search
 * can no longer end in 'absent' (`unsure`).
 */
async function scanInvalid(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  reply: ReplyToFind,
  invalid: readonly InvalidListItem[],
  budget: { gets: number; deadline: number; looked: Set<string>; unsure: boolean },
  now: () => number,
  onSkipped: (item: InvalidListItem) => void,
): Promise<ReplyCheck | undefined> {
  for (const item of invalid) {
    if (item.id === undefined || !budget.looked.has(item.id)) onSkipped(item);
    if (item.id === undefined) {
      budget.unsure = true;
      continue;
    }
    if (budget.looked.has(item.id)) continue;
    if (budget.gets >= RECHECK_LIMITS.gets || now() > budget.deadline) {
      return { outcome: 'unknown', why: `re-check stopped after ${budget.gets} look-ups` };
    }
    budget.gets++;
    budget.looked.add(item.id);
    try {
      const found = judge(await engage.publisherMentions.get(item.id), reply, budget);
      if (found) return found;
    } catch (err) {
      if (!(err instanceof MalformedResponseError)) throw err;
      budget.unsure = true;
    }
  }
  return undefined;
}

/** 'absent' only when nothing listed was left unread, and no reply to the mention was of an unknown author. */
function absentUnlessUnsure(budget: { unsure: boolean }): ReplyCheck {
  return budget.unsure
    ? { outcome: 'unknown', why: 'a listed publisher mention could not be read, or answers the mention with no sign of who wrote it' }
    : { outcome: 'absent' };
}

/**
 * Was this reply already published (a crash or an unanswered call between sending and recording)? Decided by ids:
 * a publisher mention whose `in_reply_to` (one GET each; the list does not carry it) is the customer's mention and
 * that the bot published (`ownReply`: another user's reply to the same mention is not the bot's).
 * A listed `mention_id` rules a candidate out without a GET; its text never does (candidates of the same text are looked
 * at first). Bounded in pages, GETs and time.
 * With `notBeforeMs`, a listing read for another re-check may serve this one (see `shared-reply-listing.ts`); when
 * it was cut short by its bound and holds no answer, this re-check reads its own narrower window.
 */
export async function findPublishedReply(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  reply: ReplyToFind,
  now: () => number,
  onSkipped: (item: InvalidListItem) => void = () => undefined,
): Promise<ReplyCheck> {
  const budget = { gets: 0, deadline: now() + RECHECK_LIMITS.timeMs, looked: new Set<string>(), unsure: false };
  const from = 'serviceFromMs' in reply ? reply.serviceFromMs - SERVICE_SLACK_MS : reply.sinceMs - SEARCH_SLACK_MS;
  if ('serviceFromMs' in reply && reply.notBeforeMs !== undefined) {
    const listed = await sharedReplyListing(engage, from, reply.notBeforeMs, now, { pages: RECHECK_LIMITS.pages, pageSize: PAGE_SIZE });
    const found =
      (await scan(engage, reply, listed.items, from, budget, now)) ??
      (await scanInvalid(engage, reply, listed.invalid ?? [], budget, now, onSkipped));
    if (found) return found;
    if (listed.complete) return absentUnlessUnsure(budget);
  }
  let pages = 0;
  // Published history, as the description names it: publisher mentions filtered as 'posted'.
  for await (const page of engage.publisherMentions.listPages({ dateFrom: new Date(from), limit: PAGE_SIZE, status: 'posted' })) {
    pages++;
    const found =
      (await scan(engage, reply, page.data, from, budget, now)) ??
      (await scanInvalid(engage, reply, page.invalid ?? [], budget, now, onSkipped));
    if (found) return found;
    if (!page.paging?.next_url) return absentUnlessUnsure(budget);
    if (pages >= RECHECK_LIMITS.pages || now() > budget.deadline)
      return { outcome: 'unknown', why: `re-check stopped after ${pages} pages` };
  }
  return absentUnlessUnsure(budget);
}
