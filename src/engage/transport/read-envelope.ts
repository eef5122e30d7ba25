import type { z } from 'zod';
import type { Envelope } from '../schemas/envelope.js';

/**
 * The parsed envelope, or why it could not be read. `unreadable`: the body is not JSON at all (cut short on the
 * way, or a proxy's page); JSON of another shape is readable, and would come back the same.
 */
export type EnvelopeReading = { ok: true; envelope: Envelope } | { ok: false; problem: string; unreadable: boolean };

export function readEnvelope(bodyText: string): EnvelopeReading {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { ok: false, problem: `the body is not JSON (starts with ${JSON.stringify(bodyText.slice(0, 40))})`, unreadable: true };
  }
  // The alternative error shape may omit `response`; the caller reads its meta.code.
  if (isEnvelope(json) && ('response' in json || envelopeFailureStatus(json) !== null)) return { ok: true, envelope: json };
  return { ok: false, problem: 'the body is not an envelope { meta, response }', unreadable: false };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
// zod's number refuses Infinity (what JSON.parse makes of 1e999): so does this check.
const isOptional = (v: unknown, type: 'string' | 'number'): boolean =>
  v === undefined || (type === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === type);

/**
 * Whether a parsed body has the shape `envelopeSchema` states, checked by hand: every answer of the service comes
 * through here, and a schema run (which also copies the body) cost as much as the JSON parse itself. The test
 * `read-envelope.test.ts` holds the two to the same answers.
 */
export function isEnvelope(json: unknown): json is Envelope {
  if (!isRecord(json)) return false;
  const meta = json.meta;
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  const code = meta.code;
  if (!(isOptional(code, 'number') || (typeof code === 'string' && /^\d+$/.test(code))) || !isOptional(meta.etag, 'string')) return false;
  if (!isOptional(meta.error_type, 'string') || !isOptional(meta.error_message, 'string')) return false;
  const messages = meta.messages;
  if (messages === undefined) return true;
  return Array.isArray(messages) && messages.every((m) => isRecord(m) && isOptional(m.type, 'string') && isOptional(m.text, 'string'));
}

/**
 * The alternative error shape can arrive with HTTP 200 and the real status in `meta.code`;
 * returns that status when it says failure.
 */
export function envelopeFailureStatus(envelope: Envelope): number | null {
  const raw: unknown = envelope.meta?.code;
  const code = typeof raw === 'string' ? Number(raw) : raw;
  return typeof code === 'number' && code >= 400 ? code : null;
}

/** Names every problem with its path, e.g. `response.data.3.topic_id: expected an id`. */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
}
