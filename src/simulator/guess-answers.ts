import type { ServerResponse } from 'node:http';
import { sendError, sendText } from './http-io.js';
import type { Runtime } from './runtime.js';
import type { SimError } from './sim-error.js';

/**
 * Guess `loose_types`: the answer with the types a looser service might use where the description shows none —
 * `[]` for an empty object, a numeric `unique_id`, timestamps (in `date` objects) as strings, tag objects without
 * `name` (a nameless tag is added to every `tags` list), `clicked_buttons` items without `id`, `meta.code` as a
 * string.
 */
export function loosen(envelope: unknown): unknown {
  const out = loosenValue(envelope, '');
  if (isObject(out) && isObject(out['meta']) && typeof out['meta']['code'] === 'number') out['meta']['code'] = String(out['meta']['code']);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function loosenValue(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => loosenValue(v, ''));
    if (key === 'tags')
      return [...items.map((t) => (typeof t === 'string' ? { name: t, status: 'active' } : t)), { id: 'sim-untitled', status: 'active' }];
    if (key === 'clicked_buttons')
      return items.map((b) => (isObject(b) ? Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'id')) : b));
    return items;
  }
  if (!isObject(value)) {
    if (key === 'unique_id' && typeof value === 'string' && /^\d+_\d+$/.test(value)) return Number(value.replace('_', ''));
    return value;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    out[k] = key === 'date' && typeof v === 'number' ? String(v) : loosenValue(v, k);
  }
  return out;
}

/** An error answer; the documented 400 rate-limit refusal in the body shape `rate_limit_body` asks for. */
export function sendRefusal(res: ServerResponse, rt: Runtime, err: SimError, headers: Record<string, string> = {}): void {
  const shape = rt.realism.rate_limit_body;
  if (err.code !== 'rate_limit_reached' || shape === 'envelope') {
    sendError(res, err, headers);
    return;
  }
  const text = shape === 'text' ? 'Rate limit reached. Please try again later.' : '';
  sendText(res, err.status, 'text/plain; charset=utf-8', text, { ...headers, ...err.headers });
}
