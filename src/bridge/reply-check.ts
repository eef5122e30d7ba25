import type { BridgeEngage } from './bridge-engage.js';

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
 * Was this reply already published (a crash or an unanswered call between sending and recording)? Decided by ids:
 * a publisher mention whose `in_reply_to` (one GET each; the list does not carry it) is the customer's mention.
 * A listed `mention_id` or a different text rules a candidate out without a GET. Bounded in pages, GETs and time.
 */
export async function findPublishedReply(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  /**
   * `serviceFromMs`: the customer's mention's `date.added` (the service's clock, the same as the list's), the
   * narrow window; `sinceMs`: when the effect was stored (our clock), the wide fallback.
   */
  reply: { mentionId: string; topicId?: string; text: string } & ({ serviceFromMs: number } | { sinceMs: number }),
  now: () => number,
): Promise<ReplyCheck> {
  const deadline = now() + RECHECK_LIMITS.timeMs;
  let pages = 0;
  let gets = 0;
  const from = 'serviceFromMs' in reply ? reply.serviceFromMs - SERVICE_SLACK_MS : reply.sinceMs - SEARCH_SLACK_MS;
  for await (const page of engage.publisherMentions.listPages({ dateFrom: new Date(from), limit: PAGE_SIZE })) {
    pages++;
    for (const pm of page.data) {
      const target = listedTarget(pm);
      if (target !== undefined && target !== reply.mentionId) continue;
      const text = textOf(pm.message);
      if (target === undefined && text !== undefined && text !== reply.text) continue;
      if (gets >= RECHECK_LIMITS.gets || now() > deadline) return { outcome: 'unknown', why: `re-check stopped after ${gets} look-ups` };
      gets++;
      const full = await engage.publisherMentions.get(pm.id);
      if (full.in_reply_to && String(full.in_reply_to.id) === reply.mentionId && sameTopic(full.in_reply_to, reply.topicId))
        return { outcome: 'published', publisherMentionId: String(full.id) };
    }
    if (!page.paging?.next_url) return { outcome: 'absent' };
    if (pages >= RECHECK_LIMITS.pages || now() > deadline) return { outcome: 'unknown', why: `re-check stopped after ${pages} pages` };
  }
  return { outcome: 'absent' };
}
