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
