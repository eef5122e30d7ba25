// The control API drives the demo (customers' messages, agents' replies, faults, the clock). Only a program on this
// machine may use it: a web page the operator visits could otherwise post to 127.0.0.1:4010 from the browser (a
// "simple" cross-origin request, or DNS rebinding). So a request from another origin, a write without a JSON body
// type (which a page cannot send cross-origin without asking first) and a foreign Host are refused.
import type { IncomingHttpHeaders } from 'node:http';

const LOCAL_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Why a control request is refused (status and message), or undefined when it may be served. */
export function refuseControlRequest(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  ownPort: number | undefined,
): { status: number; message: string } | undefined {
  const own = LOCAL_NAMES.map((name) => (ownPort === undefined ? name : `${name}:${ownPort}`));
  const host = headers.host?.toLowerCase();
  if (host !== undefined && !own.includes(host)) {
    return { status: 421, message: `The control API answers only for ${own.join(', ')} (this request is for another host)` };
  }
  const origin = headers.origin?.toLowerCase();
  if (origin !== undefined && !own.some((o) => origin === `http://${o}`)) {
    return { status: 403, message: 'The control API refuses requests from another origin (a web page)' };
  }
  const site = headers['sec-fetch-site']?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { status: 403, message: `The control API refuses ${site} requests from a browser` };
  }
  if (method === 'POST') {
    const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, message: 'Control writes take Content-Type: application/json' };
  }
  return undefined;
}
