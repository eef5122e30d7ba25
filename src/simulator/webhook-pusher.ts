export type Sleep = (ms: number) => Promise<void>;
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number }>;

/** Counts of mentions: delivered, given up, and waiting or in flight; `pushes`: requests that delivered them. */
export interface WebhookStats {
  url: string | null;
  delivered: number;
  failed: number;
  pending: number;
  pushes: number;
}

const ATTEMPTS = 4;
const TIMEOUT_MS = 5_000;
/** The most mentions one push carries (as many as one page of the list call). */
export const MAX_PUSH_ITEMS = 100;
/** A push grows no longer than this (bytes of JSON) with mentions after its first, so a huge one goes alone. */
export const MAX_PUSH_BYTES = 1_000_000;

/**
 * The automation-rule push: each new inbound mention is POSTed in a JSON array to one URL, in order, one request
 * at a time, retried a few times with backoff; a target that keeps failing only loses that delivery. Mentions that
 * arrive while a push is in flight go out together in the next one (the body is `[mention, ...]`), as a sender
 * that keeps order must do once its target answers slower than mentions arrive: one slow answer then delays the
 * mentions behind it by one round trip, not by one round trip each. A push that keeps failing gives up only its
 * oldest mention (whose tries it was), so an outage loses as many mentions as when each went alone.
 */
export class WebhookPusher {
  private url: string | null = null;
  /** Serialized mentions waiting for the current target, oldest first. */
  private queue: string[] = [];
  private draining: Promise<void> | undefined;
  private stats = { delivered: 0, failed: 0, pending: 0, pushes: 0 };
  private generation = 0;

  constructor(
    private readonly fetchFn: FetchLike,
    private readonly sleep: Sleep,
  ) {}

  setUrl(url: string | null): void {
    this.url = url;
    this.generation += 1;
    // What waited for the old target is given up (the poll finds it), as its deliveries in flight are.
    this.stats.failed += this.queue.length;
    this.stats.pending -= this.queue.length;
    this.queue = [];
  }

  status(): WebhookStats {
    return { url: this.url, ...this.stats };
  }

  push(body: unknown[]): void {
    if (!this.url || body.length === 0) return;
    // Shown as it was at this moment, whenever it is delivered.
    for (const item of body) this.queue.push(JSON.stringify(item));
    this.stats.pending += body.length;
    this.drain();
  }

  /** Resolves once every queued delivery finished (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = this.deliverAll().finally(() => {
      this.draining = undefined;
      if (this.queue.length > 0) this.drain();
    });
  }

  private async deliverAll(): Promise<void> {
    while (this.queue.length > 0 && this.url) {
      const batch = this.queue.splice(0, batchLength(this.queue));
      const generation = this.generation;
      const ok = await this.deliver(this.url, batch, generation).catch(() => false);
      if (ok) {
        this.stats.delivered += batch.length;
        this.stats.pushes += 1;
        this.stats.pending -= batch.length;
      } else if (generation !== this.generation) {
        // The target was replaced meanwhile: what this push carried is given up with the rest (see setUrl).
        this.stats.failed += batch.length;
        this.stats.pending -= batch.length;
      } else {
        // Only the oldest mention used up its tries, as when each went alone: the others had merely ridden along
        // and go out again, first, with the next push.
        this.stats.failed += 1;
        this.stats.pending -= 1;
        this.queue.unshift(...batch.slice(1));
      }
    }
  }

  /** Whether the target took the push, within ATTEMPTS tries. */
  private async deliver(url: string, items: readonly string[], generation: number): Promise<boolean> {
    const text = `[${items.join(',')}]`;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (generation !== this.generation) return false;
      if (attempt > 0) await this.sleep(100 * 2 ** (attempt - 1));
      try {
        const res = await this.fetchFn(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (res.ok) return true;
      } catch {
        // a refused connection or a timeout is retried like a failed status
      }
    }
    return false;
  }
}

/** How many of the oldest queued mentions go in the next push: at least one, within both bounds. */
function batchLength(queue: readonly string[]): number {
  let bytes = queue[0]?.length ?? 0;
  let n = 1;
  while (n < queue.length && n < MAX_PUSH_ITEMS && bytes + (queue[n]?.length ?? 0) + 1 <= MAX_PUSH_BYTES) {
    bytes += (queue[n]?.length ?? 0) + 1;
    n++;
  }
  return n;
}
