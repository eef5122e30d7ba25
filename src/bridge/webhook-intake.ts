import type { BridgeMetrics } from './metrics-port.js';
import type { Store } from '../storage/index.js';
import type { ClassifyOptions } from './inbound-item.js';
import { ingestMentions, parseWebhookBody } from './ingest.js';

/** What a webhook push did: `accepted` counts only items taken; every other item is counted by reason. */
export interface WebhookOutcome {
  readonly accepted: number;
  readonly skipped: { readonly invalid: number; readonly otherTopic: number; readonly notServed: number };
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
    metrics: BridgeMetrics;
    topicIds: () => Promise<readonly string[]>;
    schedule: (key: string) => void;
  },
): Promise<WebhookOutcome | { error: string }> {
  const parsed = parseWebhookBody(body);
  if ('error' in parsed) return parsed;
  const watched = new Set(await o.topicIds());
  const mine = parsed.mentions.filter((m) => watched.has(String(m.topic_id)));
  const otherTopic = parsed.mentions.length - mine.length;
  // Answered once recorded in memory: the service's push is not held up by the disk, and the poller re-reads
  // anything a crash in the next ~55 ms could lose.
  const r = await ingestMentions(o.store, mine, {
    channelBySource: o.channelBySource,
    schedule: o.schedule,
    waitDurable: false,
  });
  const skipped = { invalid: parsed.invalid, otherTopic, notServed: r.ignored };
  if (skipped.invalid) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'invalid-mention' }, skipped.invalid);
  if (skipped.otherTopic) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'other-topic' }, skipped.otherTopic);
  if (skipped.notServed) o.metrics.skippedItems.inc({ source: 'webhook', reason: 'not-served' }, skipped.notServed);
  return { accepted: r.recorded + r.repeated, skipped };
}
