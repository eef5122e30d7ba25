import { Agent, request, type Dispatcher } from 'undici';
import type { HeaderBag } from '../errors/rate-limit-headers.js';
import type { ConnectionFailure } from '../errors/error-kinds.js';

export interface Timeouts {
  /** TCP + TLS handshake. */
  connectMs: number;
  /**
   * One attempt, whole: waiting for the headers, between body chunks, and in total. A server that drips its
   * answer a byte at a time never trips an idle timeout, so the total deadline is what bounds it.
   */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = { connectMs: 5_000, requestMs: 30_000 };

/** No answer of the API comes near this (a page of mentions is well under 1 MB); beyond it the answer is cut off. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface SendOptions {
  /** Aborts the attempt from outside (the client stopping). */
  readonly signal?: AbortSignal | undefined;
  readonly maxResponseBytes?: number | undefined;
}

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

/** Raised by `sendHttp` when the answer is larger than allowed; it is dropped unread. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly limitBytes: number,
  ) {
    super(`the answer is larger than ${limitBytes} bytes`);
  }
}

/** Raised by `sendHttp` when no answer could be read; the caller adds method and path. */
export class NetworkFailure extends Error {
  constructor(
    readonly reason: ConnectionFailure,
    cause: unknown,
  ) {
    super(`network failure (${reason})`, { cause });
  }
}

/**
 * The default dispatcher: an undici Agent keeps one keep-alive pool per origin, and refuses TLS
 * below 1.2 (the service disabled 1.0; we do not go lower than 1.2 either). `connections`: as many as the
 * request classes let be in flight together, so the pool never queues a call its class has let go.
 */
export function createDefaultDispatcher(timeouts: Readonly<Timeouts>, connections: number): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections,
    connect: { timeout: timeouts.connectMs, minVersion: 'TLSv1.2' },
  });
}

export async function sendHttp(
  dispatcher: Dispatcher,
  req: HttpRequest,
  timeouts: Readonly<Timeouts>,
  options: SendOptions = {},
): Promise<HttpAnswer> {
  // One controller per attempt, fed by the total deadline and by the client's stop signal; both are detached when
  // the attempt ends (AbortSignal.any on a long-lived signal keeps every attempt's signal alive on Node 20).
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new Error('the request took longer than its total deadline'));
  }, timeouts.requestMs);
  const onStop = () => attempt.abort(options.signal?.reason);
  if (options.signal?.aborted) onStop();
  else options.signal?.addEventListener('abort', onStop, { once: true });
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  try {
    const res = await request(req.url, {
      dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body,
      headersTimeout: timeouts.requestMs,
      bodyTimeout: timeouts.requestMs,
      signal: attempt.signal,
    });
    const bodyText = await readLimited(res, limit);
    return { status: res.statusCode, headers: res.headers, bodyText };
  } catch (error) {
    if (error instanceof ResponseTooLarge) throw error;
    if (options.signal?.aborted) throw new NetworkFailure('aborted', error);
    if (timedOut) throw new NetworkFailure('timeout', error);
    throw new NetworkFailure(classifyNetworkError(error), error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onStop);
  }
}

async function readLimited(res: Dispatcher.ResponseData, limit: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    throw new ResponseTooLarge(res.statusCode, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      res.body.destroy();
      throw new ResponseTooLarge(res.statusCode, limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function classifyNetworkError(error: unknown): ConnectionFailure {
  const code = errorCode(error) ?? errorCode((error as { cause?: unknown } | null)?.cause);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timeout';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'reset';
    case 'ECONNREFUSED':
      return 'refused';
    default:
      return 'other';
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
