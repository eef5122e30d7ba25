export type Sleep = (ms: number) => Promise<void>;
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number }>;

export interface WebhookStats {
  url: string | null;
  delivered: number;
  failed: number;
  pending: number;
}

const ATTEMPTS = 4;
const TIMEOUT_MS = 5_000;

/**
 * The automation-rule push: each new inbound mention is POSTed as `[mention]` to one URL, in order,
 * retried a few times with backoff; a target that keeps failing only loses that delivery.
 */
export class WebhookPusher {
  private url: string | null = null;
  private chain: Promise<void> = Promise.resolve();
  private stats = { delivered: 0, failed: 0, pending: 0 };
  private generation = 0;

  constructor(
    private readonly fetchFn: FetchLike,
    private readonly sleep: Sleep,
  ) {}

  setUrl(url: string | null): void {
    this.url = url;
    this.generation += 1;
  }

  status(): WebhookStats {
    return { url: this.url, ...this.stats };
  }

  push(body: unknown[]): void {
    const url = this.url;
    if (!url) return;
    const generation = this.generation;
    const text = JSON.stringify(body);
    this.stats.pending += 1;
    this.chain = this.chain.then(() => this.deliver(url, text, generation)).catch(() => undefined);
  }

  /** Resolves once every queued delivery finished (tests and shutdown). */
  idle(): Promise<void> {
    return this.chain;
  }

  private async deliver(url: string, text: string, generation: number): Promise<void> {
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (generation !== this.generation) break;
        if (attempt > 0) await this.sleep(100 * 2 ** (attempt - 1));
        try {
          const res = await this.fetchFn(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          if (res.ok) {
            this.stats.delivered += 1;
            return;
          }
        } catch {
          // a refused connection or a timeout is retried like a failed status
        }
      }
      this.stats.failed += 1;
    } finally {
      this.stats.pending -= 1;
    }
  }
}
