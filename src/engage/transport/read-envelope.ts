import type { z } from 'zod';
import { envelopeSchema, type Envelope } from '../schemas/envelope.js';

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
  const parsed = envelopeSchema.safeParse(json);
  // The alternative error shape may omit `response`; the caller reads its meta.code.
  if (parsed.success && envelopeFailureStatus(parsed.data) !== null) return { ok: true, envelope: parsed.data };
  if (!parsed.success || !('response' in parsed.data)) {
    return { ok: false, problem: 'the body is not an envelope { meta, response }', unreadable: false };
  }
  return { ok: true, envelope: parsed.data };
}

/**
 * The alternative error shape can arrive with HTTP 200 and the real status in `meta.code`;
 * returns that status when it says failure.
 */
export function envelopeFailureStatus(envelope: Envelope): number | null {
  const code = envelope.meta?.code;
  return typeof code === 'number' && code >= 400 ? code : null;
}

/** Names every problem with its path, e.g. `response.data.3.topic_id: expected an id`. */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[root, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
}
