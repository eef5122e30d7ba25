import { MalformedResponseError } from '../errors/error-kinds.js';
import { InvalidParameterError } from '../errors/error-kinds.js';
import { redactUrl } from '../redact-url.js';
import { encodeParams } from './encode-params.js';
import type { Operation } from './operation.js';
import { fillPath } from './path-template.js';
import type { HttpRequest } from './send-http.js';

export interface RequestTarget {
  baseUrl: URL;
  accountId: string;
  accessToken: string;
  version: string;
}

/**
 * Turns an operation into an HTTP request: GET and DELETE parameters in the query (a DELETE body is something
 * HTTP gives no meaning to, and some services do not read it: issue 26), POST parameters as a form body, `version`
 * on every request, the token only in the Authorization header.
 */
export function buildRequest(op: Operation, target: RequestTarget): HttpRequest {
  const headers: Record<string, string> = {
    authorization: `Bearer ${target.accessToken}`,
    accept: op.format === 'xml' ? 'application/xml' : 'application/json',
    'user-agent': 'engage-bridge',
  };
  if (op.nextUrl !== undefined) {
    return { method: 'GET', url: followUrl(op, target), headers };
  }
  // One parse of the finished text: copying the base URL and setting its path and query re-parsed it each time.
  // (The path's values are URI-encoded by fillPath and the query is form-encoded, so the text needs no more escaping.)
  const address = baseOf(target) + pathOf(op, target);
  const params = encodeParams({ ...op.params, version: target.version, format: op.format === 'xml' ? 'xml' : undefined });
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = params.toString();
    return { method: op.method, url: new URL(query === '' ? address : `${address}?${query}`), headers };
  }
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: op.method, url: new URL(address), headers, body: params.toString() };
}

const bases = new WeakMap<URL, string>();

/** The base address as text, without a trailing slash (it has no query, fragment or credentials: parseBaseUrl). */
function baseOf(target: RequestTarget): string {
  let base = bases.get(target.baseUrl);
  if (base === undefined) {
    base = target.baseUrl.origin + target.baseUrl.pathname.replace(/\/+$/, '');
    bases.set(target.baseUrl, base);
  }
  return base;
}

/** The path (without base) of an operation, for requests and error messages. */
export function pathOf(op: Operation, target: RequestTarget): string {
  try {
    return fillPath(op.template, { account_id: target.accountId, ...op.pathValues });
  } catch (error) {
    throw new InvalidParameterError({
      method: op.method,
      path: op.template,
      description: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * `next_url` is followed as given, with two guards: it must point at the configured origin (the token
 * must never be sent elsewhere), and a token in it is dropped (the header carries it).
 */
function followUrl(op: Operation, target: RequestTarget): URL {
  let url: URL;
  try {
    url = new URL(op.nextUrl ?? '', target.baseUrl);
  } catch {
    throw malformed(op, `paging.next_url is not a URL`);
  }
  if (url.origin !== target.baseUrl.origin) {
    throw malformed(op, `paging.next_url points at another origin (${url.origin}); not followed`);
  }
  url.searchParams.delete('access_token');
  if (!url.searchParams.has('version')) url.searchParams.set('version', target.version);
  return url;
}

function malformed(op: Operation, description: string): MalformedResponseError {
  return new MalformedResponseError({ method: 'GET', path: redactUrl(op.template), description });
}
