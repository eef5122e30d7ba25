import type { BridgeEngage } from './bridge-engage.js';

/** How far before the effect was stored the search for an already published reply starts. */
const SEARCH_SLACK_SECONDS = 120;

function textOf(message: unknown): string | undefined {
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object' && typeof (message as { content?: unknown }).content === 'string') {
    return (message as { content: string }).content;
  }
  return undefined;
}

/**
 * Was this reply already published (a crash or an unanswered call between sending and recording)? The publisher
 * mentions list does not carry `in_reply_to`, so candidates with the same text are fetched one by one.
 */
export async function findPublishedReply(
  engage: Pick<BridgeEngage, 'publisherMentions'>,
  reply: { mentionId: string; text: string; sinceMs: number },
): Promise<string | undefined> {
  const dateFrom = new Date(reply.sinceMs - SEARCH_SLACK_SECONDS * 1000);
  for await (const page of engage.publisherMentions.listPages({ dateFrom })) {
    for (const pm of page.data) {
      const text = textOf(pm.message);
      if (text !== undefined && text !== reply.text) continue;
      const full = await engage.publisherMentions.get(pm.id);
      if (full.in_reply_to && String(full.in_reply_to.id) === reply.mentionId) return full.id;
    }
  }
  return undefined;
}
