import type { IncomingMessage, ServerResponse } from 'node:http';
import { SimError } from './sim-error.js';

export const MAX_BODY_BYTES = 1_000_000;

/** Reads the whole body as UTF-8; a body over the cap is a 400 (the rest is drained, not kept). */
export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooBig = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooBig) reject(new SimError(400, 'invalid_parameter', `Request body is larger than ${maxBytes} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The conventions' error body: `{ error, error_description }` at the top level. */
export function sendError(res: ServerResponse, err: SimError, headers: Record<string, string> = {}): void {
  sendJson(res, err.status, { error: err.code, error_description: err.message }, { ...headers, ...err.headers });
}

/** Splits a raw request target into path and query without letting `//host` be read as an authority. */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const at = target.indexOf('?');
  const pathname = at < 0 ? target : target.slice(0, at);
  return { pathname: pathname || '/', query: new URLSearchParams(at < 0 ? '' : target.slice(at + 1)) };
}

/** First value of each key: query first, then the form body overrides. */
export function mergeParams(...sources: URLSearchParams[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const source of sources) {
    const seen = new Set<string>();
    for (const [key, value] of source) {
      if (seen.has(key)) continue;
      seen.add(key);
      out[key] = value;
    }
  }
  return out;
}
