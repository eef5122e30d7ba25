// A client of an NLU server speaking Rasa's HTTP API (POST /model/parse). It never throws and never makes the bot
// wait long: a slow, failing or nonsensical answer is no answer (the brain falls back to its keywords), and after
// repeated failures a circuit breaker stops asking for a while.
// Boundary: the one place that talks to the NLU server; uses Node's global fetch (undici stays in src/engage).
import { z } from 'zod';

export interface NluEntity {
  entity: string;
  value: string;
}

export interface NluResult {
  intent: string;
  confidence: number;
  entities: NluEntity[];
}

export interface NluParser {
  /** The server's reading of a text, or undefined (no server, too slow, down, nonsense, breaker open). */
  parse(text: string): Promise<NluResult | undefined>;
}

export interface NluClientOptions {
  url: string;
  timeoutMs: number;
  /** Failures in a row that open the breaker. */
  breakerFailures: number;
  /** How long the breaker stays open before one request may try again. */
  breakerOpenMs: number;
  now: () => number;
  onFailure?: (why: string) => void;
  onBreaker?: (state: 'open' | 'closed') => void;
}

const answerSchema = z.looseObject({
  intent: z.looseObject({ name: z.string().min(1), confidence: z.number().min(0).max(1) }),
  entities: z
    .array(z.looseObject({ entity: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]) }))
    .optional()
    .catch([]),
});

/** The parse endpoint of a server address given with or without the path (credentials left out: see `nluTarget`). */
export function parseEndpoint(url: string): string {
  const u = new URL(url);
  if (!/\/model\/parse\/?$/.test(u.pathname)) u.pathname = `${u.pathname.replace(/\/+$/, '')}/model/parse`;
  u.username = '';
  u.password = '';
  return u.toString();
}

/** Where to POST and how: credentials in the address (`https://user:pass@host`) become a Basic header, as fetch refuses them in a URL. */
export function nluTarget(url: string): { endpoint: string; headers: Record<string, string> } {
  const u = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (u.username || u.password) {
    const user = decodeURIComponent(u.username);
    const pass = decodeURIComponent(u.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
  return { endpoint: parseEndpoint(url), headers };
}

/** The address as logs and checklists may show it: no credentials, no query (Rasa's `?token=`). */
export function shownAddress(url: string): string {
  const u = new URL(parseEndpoint(url));
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** Longest text sent: NLU servers are for messages, not documents. */
const MAX_TEXT = 2000;

/** Largest answer read: a Rasa parse result is a few KiB. */
export const MAX_ANSWER_BYTES = 256 * 1024;

/** The body as text, or undefined once it passes `limit` bytes (the rest is not read). */
async function readCapped(res: Response, limit: number): Promise<string | undefined> {
  if (Number(res.headers.get('content-length') ?? 0) > limit) {
    await res.body?.cancel();
    return undefined;
  }
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createNluClient(o: NluClientOptions): NluParser {
  const { endpoint, headers } = nluTarget(o.url);
  // Error texts may quote the address; only the shown form (no credentials, no token) may leave this module.
  const scrub = (text: string): string => text.replaceAll(endpoint, shownAddress(o.url));
  let failures = 0;
  let openUntil: number | undefined;

  const fail = (why: string): undefined => {
    failures += 1;
    o.onFailure?.(why);
    if (failures >= o.breakerFailures && openUntil === undefined) {
      openUntil = o.now() + o.breakerOpenMs;
      o.onBreaker?.('open');
    } else if (openUntil !== undefined) {
      // A trial while half-open failed: stay open for another period.
      openUntil = o.now() + o.breakerOpenMs;
    }
    return undefined;
  };

  return {
    async parse(text) {
      const trimmed = text.trim().slice(0, MAX_TEXT);
      if (!trimmed) return undefined;
      if (openUntil !== undefined && o.now() < openUntil) return undefined;
      let body: unknown;
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: trimmed }),
          signal: AbortSignal.timeout(o.timeoutMs),
          // A redirect could send the customer's words (and the token) elsewhere: none is followed.
          redirect: 'manual',
        });
        if (!res.ok) {
          await res.body?.cancel();
          return fail(`HTTP ${res.status}`);
        }
        const text = await readCapped(res, MAX_ANSWER_BYTES);
        if (text === undefined) return fail(`the answer is over ${MAX_ANSWER_BYTES} bytes`);
        body = JSON.parse(text);
      } catch (e) {
        const name = (e as Error).name;
        return fail(name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${o.timeoutMs} ms` : scrub((e as Error).message));
      }
      const parsed = answerSchema.safeParse(body);
      if (!parsed.success) return fail('the answer is not a Rasa parse result');
      if (openUntil !== undefined) o.onBreaker?.('closed');
      failures = 0;
      openUntil = undefined;
      return {
        intent: parsed.data.intent.name,
        confidence: parsed.data.intent.confidence,
        entities: (parsed.data.entities ?? []).map((e) => ({ entity: e.entity, value: String(e.value) })),
      };
    },
  };
}
