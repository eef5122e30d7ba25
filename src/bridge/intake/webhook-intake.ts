import type { Mention } from '../../engage/index.js';
import type { BridgeMetrics } from '../metrics-port.js';
import type { Store } from '../../storage/index.js';
import type { ClassifyOptions } from './inbound-item.js';
import { ingestMentions, parseWebhookBody } from './ingest.js';
import type { SeenMentions } from './seen-mentions.js';

/** What a webhook push did: `accepted` counts only items taken; every other item is counted by reason. */
export interface WebhookOutcome {
  readonly accepted: number;
  readonly skipped: { readonly invalid: number; readonly otherTopic: number; readonly notServed: number; readonly unconfirmed: number };
}

/**
 * Takes a webhook push as the poller would take the same mentions: only watched topics, only served channels,
 * each item validated alone. Items not taken are counted (in the answer and in /metrics), never reported as
 * accepted.
 */
export async function takeWebhookPush(
  body: unknown,
  o: ClassifyOptions & {
    store: Store;
    /** The bridge's memory of recorded mentions (`seen-mentions.ts`). */
    seen?: SeenMentions;
    metrics: BridgeMetrics;
    topicIds: () => Promise<readonly string[]>;
    schedule: (key: string) => void;
    /** The service's own copy of a mention (GET by topic and id); undefined when it has none. */
    fetchMention: (m: Mention) => Promise<Mention | undefined>;
  },
): Promise<WebhookOutcome | { error: string }> {
  const parsed = parseWebhookBody(body);
  if ('error' in parsed) return parsed;
  const watched = new Set(await o.topicIds());
  const mine = parsed.mentions.filter((m) => watched.has(String(m.topic_id)));
  const otherTopic = parsed.mentions.length - mine.length;
  // A push that claims a person's act (a reply action, an account-written message) could hand a contact to
  // people: it is taken only as the service itself shows it. Plain customer messages are taken as pushed.
  const taken: Mention[] = [];
  let unconfirmed = 0;
  for (const m of mine) {
    if (!claimsHumanActivity(m)) {
      taken.push(m);
      continue;
    }
    const own = await o.fetchMention(m).catch(() => undefined);
    if (own === undefined) unconfirmed++;
    else taken.push(own);
  }
  // Answered only once on disk (one group commit, a millisecond or so): a push acknowledged and then lost to a
  // crash or a power cut would be found again only by a later re-read, after newer messages were answered (chaos
  // saw such customers skipped while people took over in between).
  const r = await ingestMentions(o.store, taken, {
    channelBySource: o.channelBySource,
    schedule: o.schedule,
    ...(o.isOwnService ? { isOwnService: o.isOwnService } : {}),
    ...(o.seen ? { seen: o.seen } : {}),
  });
  const skipped = { invalid: parsed.invalid, otherTopic, notServed: r.ignored, unconfirmed };
  if (skipped.invalid) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'invalid-mention' }, skipped.invalid);
  if (skipped.otherTopic) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'other-topic' }, skipped.otherTopic);
  if (skipped.unconfirmed) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'unconfirmed' }, skipped.unconfirmed);
  if (skipped.notServed) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'not-served' }, skipped.notServed);
  return { accepted: r.recorded + r.repeated, skipped };
}

function claimsHumanActivity(m: Mention): boolean {
  return m.author?.managed === true || (m.actions ?? []).some((a) => a.type === 'reply');
}
