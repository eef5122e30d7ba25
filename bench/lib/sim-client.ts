/** The subset of the simulator's log entries the bench reads (tests build them by hand), and its control API (`/_sim/…`), as the bench drives it. Plain JSON over loopback. */

/** `GET /_sim/webhooks`: counts of mentions, and `pushes` (the requests that delivered them). */
export interface WebhookStatus {
  readonly delivered: number;
  readonly failed: number;
  readonly pending: number;
  readonly pushes?: number;
}

export interface OutboundEntry {
  seq: number;
  mention_id: string | null;
  message: string;
  author: 'bot' | 'agent';
  date: number;
  recipient: { channel: string; service_id: string } | null;
  services: Array<{ type: string; service_id: string }>;
}

export interface RequestEntry {
  seq: number;
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  duration_ms: number;
  date: number;
  at_ms: number;
  error?: string;
  /** A handover call that was answered: who held the contact then (dumps before 2026-11-23 21:00 lack it). */
  owner?: 'agents' | 'application';
}

export interface InboundMention {
  id: string;
  date: { added: number };
}

export interface Faults {
  latency_ms?: number;
  rate_limit?: number;
  server_error?: number;
  timeout?: number;
  reset?: number;
  malformed?: number;
  seed?: number;
}

export class SimClient {
  constructor(readonly baseUrl: string) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      // The control API takes writes only as JSON (it refuses what a web page could send), an empty one too.
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}), headers: { 'content-type': 'application/json' } } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`simulator ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  inbound(channel: string, author: { id: string; name?: string }, text: string): Promise<InboundMention> {
    return this.call('POST', '/_sim/inbound', { channel, author, text });
  }

  outbound(after: number, limit = 10_000): Promise<OutboundEntry[]> {
    return this.call('GET', `/_sim/outbound?after=${after}&limit=${limit}`);
  }

  requests(after: number, limit = 10_000): Promise<RequestEntry[]> {
    return this.call('GET', `/_sim/requests?after=${after}&limit=${limit}`);
  }

  faults(faults: Faults): Promise<unknown> {
    return this.call('POST', '/_sim/faults', faults);
  }

  /** The simulator's realism options (see docs/simulator.md): clock offset, late indexing, header variants, ... */
  realism(options: Record<string, unknown>): Promise<unknown> {
    return this.call('POST', '/_sim/realism', options);
  }

  webhook(url: string | undefined): Promise<WebhookStatus> {
    return this.call('POST', '/_sim/webhooks', url === undefined ? {} : { url });
  }

  /** What the simulator's push did so far (mentions, and the requests that carried them). */
  webhookStatus(): Promise<WebhookStatus> {
    return this.call('GET', '/_sim/webhooks');
  }

  handover(channel: string, serviceId: string, owner: 'agents' | 'application'): Promise<unknown> {
    return this.call('POST', '/_sim/handover', { channel, service_id: serviceId, owner });
  }

  agentReply(channel: string, serviceId: string, text: string): Promise<{ publisher_mention_id: string }> {
    return this.call('POST', '/_sim/agent/reply', { channel, service_id: serviceId, text });
  }

  addToken(token: string, userId: string, scopes: string[]): Promise<unknown> {
    return this.call('POST', '/_sim/tokens', { token, user_id: userId, scopes });
  }

  rateLimit(limit: number, windowSeconds: number): Promise<unknown> {
    return this.call('POST', '/_sim/rate-limit', { limit, window_seconds: windowSeconds });
  }

  /** Reads a whole log from `after` to its current end, page by page. */
  async drain<T extends { seq: number }>(read: (after: number) => Promise<T[]>, after: number): Promise<T[]> {
    const all: T[] = [];
    let cursor = after;
    for (;;) {
      const page = await read(cursor);
      if (page.length === 0) return all;
      all.push(...page);
      cursor = page[page.length - 1]!.seq;
    }
  }
}
