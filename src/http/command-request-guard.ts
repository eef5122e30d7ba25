import type { IncomingHttpHeaders } from 'node:http';

/**
 * Headers that only a browser or a proxy adds. A terminal on this machine sends none of them; a web page that
 * reaches a local listener sends `Origin`, and a reverse proxy adds the forwarding ones. Either way the request
 * did not come from the operator's own `engage-bridge cmd`, so a manager command is refused.
 */
const FOREIGN_HEADERS = ['origin', 'referer', 'forwarded', 'via', 'x-real-ip', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

/** Why a request for a manager command is refused, or undefined when it may be taken. */
export function refuseCommandRequest(method: string | undefined, headers: IncomingHttpHeaders): string | undefined {
  if (method !== 'POST') return 'use POST';
  for (const name of Object.keys(headers)) {
    if (FOREIGN_HEADERS.includes(name) || name.startsWith('x-forwarded-')) {
      return `manager commands are not taken from a browser or through a proxy (header ${name})`;
    }
  }
  const host = headers.host;
  if (host !== undefined && host !== 'localhost') return 'manager commands are taken from this machine only';
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return 'the body must be application/json';
  return undefined;
}
