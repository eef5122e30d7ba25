import type { BridgeContext } from '../bridge-context.js';
import { parseCursor } from './poll-window.js';

/** How often the watched topics are listed again when `ENGAGE_TOPIC_IDS` is not set. */
export const TOPIC_REFRESH_MS = 10 * 60_000;

/**
 * The watched topics: the configured ones, or the account's topics listed again every `refreshMs`, so a topic
 * added in the service is read without a restart. A failed refresh keeps the list it had.
 */
export function watchedTopics(o: {
  configured: readonly string[] | undefined;
  list: () => Promise<readonly string[]>;
  now: () => number;
  refreshMs?: number;
  onRefreshError?: (err: unknown) => void;
}): () => Promise<readonly string[]> {
  let topics: readonly string[] | undefined = o.configured;
  let listedAt = Number.NEGATIVE_INFINITY;
  const refreshMs = o.refreshMs ?? TOPIC_REFRESH_MS;
  return async () => {
    if (o.configured) return o.configured;
    if (topics !== undefined && Math.abs(o.now() - listedAt) < refreshMs) return topics;
    try {
      topics = await o.list();
      listedAt = o.now();
    } catch (err) {
      if (topics === undefined) throw err;
      listedAt = o.now(); // retried after another interval, not on every call
      o.onRefreshError?.(err);
    }
    return topics;
  };
}

/**
 * Per watched topic, the newest `date.added` its reads from the cursor had reached: the joint cursor (`joinedKey`)
 * for a topic that has one of its own (the next poll reads it jointly), none for a topic still without a cursor.
 */
export async function readPollPositions(
  ctx: Pick<BridgeContext, 'store' | 'log'>,
  topicIds: () => Promise<readonly string[]>,
  joinedKey: string,
): Promise<Map<string, number | undefined>> {
  const joined = parseCursor(await ctx.store.getCursor(joinedKey));
  const positions = new Map<string, number | undefined>();
  let topics: readonly string[];
  try {
    topics = await topicIds();
  } catch (err) {
    // Starting never waits for the service: the joint read stands for every topic (`*`) until it answers.
    ctx.log.warn({ err: (err as Error)?.message }, 'could not list the topics at the restart; the joint read stands for all');
    return new Map([[joinedKey, joined?.newestAddedAt]]);
  }
  for (const topicId of topics) {
    const own = parseCursor(await ctx.store.getCursor(topicId));
    positions.set(topicId, own === undefined ? undefined : (joined ?? own).newestAddedAt);
  }
  return positions;
}
