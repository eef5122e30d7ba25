import { invalidParameter } from './sim-error.js';
import type { Params } from './params.js';

export interface PagedList<T> {
  count: number;
  data: T[];
  paging: { next_url: string | null; previous_url: string | null };
}

export interface PageRequest {
  baseUrl: string;
  pathname: string;
  params: Params;
}

/** An opaque page token carrying a JSON cursor; anything we did not issue is a 400. */
export function encodePageToken(cursor: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodePageToken(token: string | undefined): Record<string, unknown> | undefined {
  if (token === undefined || token === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw invalidParameter("Parameter 'page_token' is not a valid page token");
}

/** The absolute URL of the same list call with another page token (the token itself never goes in). */
export function pageUrl(req: PageRequest, token: string): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(req.params.values)) {
    if (key !== 'page_token' && key !== 'access_token') query.set(key, value);
  }
  query.set('page_token', token);
  return `${req.baseUrl}${req.pathname}?${query.toString()}`;
}

/** Offset paging over a fully known, stable list. */
export function offsetPage<T>(req: PageRequest, items: readonly T[], limit: number): PagedList<T> {
  const cursor = decodePageToken(req.params.str('page_token'));
  const offset = cursor === undefined ? 0 : cursor['o'];
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw invalidParameter("Parameter 'page_token' is not a valid page token");
  }
  const data = items.slice(offset, offset + limit);
  const hasNext = limit > 0 && offset + limit < items.length;
  return {
    count: items.length,
    data,
    paging: {
      next_url: hasNext ? pageUrl(req, encodePageToken({ o: offset + limit })) : null,
      previous_url: offset > 0 && limit > 0 ? pageUrl(req, encodePageToken({ o: Math.max(0, offset - limit) })) : null,
    },
  };
}
