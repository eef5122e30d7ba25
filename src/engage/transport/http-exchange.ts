import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import type { HeaderBag } from '../errors/rate-limit-headers.js';

/** One request as the transport sends it. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | undefined;
}

export interface HttpAnswer {
  status: number;
  headers: HeaderBag;
  bodyText: string;
}

/** Raised when the answer is larger than allowed; it is dropped unread. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(`the answer is larger than ${limitBytes} bytes`);
  }
}

/** What ends one attempt early (its total deadline, the client stopping): `abort` once, with the reason. */
export class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * Sends one request through the dispatcher and collects the answer, at most `limitBytes` of body (declared or
 * counted), as text. Rejects with undici's error, the abort's reason, or ResponseTooLarge.
 *
 * A dispatch handler of our own, not undici's `request()`: that one wraps every call in an async resource and
 * streams the body through a Readable, which cost more CPU than the rest of a call's bookkeeping; the body is
 * small and wanted whole, so its chunks are simply kept.
 */
export function exchange(
  dispatcher: Dispatcher,
  req: HttpRequest,
  timeoutMs: number,
  limitBytes: number,
  attempt: AttemptAbort,
): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let status = 0;
    let headers: HeaderBag = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: unknown, answer?: HttpAnswer): void => {
      if (settled) return;
      settled = true;
      attempt.off('abort', onAbort);
      if (answer) resolve(answer);
      else reject(error);
    };
    // Before the request reached a connection there is no controller yet: it is refused the moment it gets one.
    const stop = (reason: unknown): void => {
      if (controller && !controller.aborted) controller.abort(reason as Error);
      else settle(reason);
    };
    const onAbort = (): void => stop(attempt.reason);
    if (attempt.aborted) {
      reject(attempt.reason);
      return;
    }
    attempt.once('abort', onAbort);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (attempt.aborted) c.abort(attempt.reason as Error);
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        if (statusCode < 200) return; // informational (100 Continue): the answer follows
        status = statusCode;
        headers = responseHeaders as HeaderBag;
        const declared = Number(responseHeaders['content-length']);
        if (Number.isFinite(declared) && declared > limitBytes) stop(new ResponseTooLarge(statusCode, limitBytes));
      },
      onResponseData(_c, chunk) {
        if (settled) return;
        size += chunk.length;
        if (size > limitBytes) {
          stop(new ResponseTooLarge(status, limitBytes));
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        // Most answers arrive in one chunk: read as it is, not copied into a new buffer first.
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
        settle(undefined, { status, headers, bodyText: body.toString('utf8') });
      },
      onResponseError(_c, error) {
        settle(error);
      },
    };
    dispatcher.dispatch(
      {
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        // DELETE takes its parameters as a form body (the conventions), and undici closes the connection after a
        // body on a method it does not expect one on unless told not to: every handover to the bot cost a new
        // connection (connect, and a close with an error built for it). The length is always sent, so the
        // connection stays framed.
        ...(req.body !== undefined ? { reset: false } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      handler,
    );
  });
}
