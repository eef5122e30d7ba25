import { Agent, type Dispatcher } from 'undici';
import type { ConnectionFailure } from '../errors/error-kinds.js';
import { AttemptAbort, exchange, ResponseTooLarge, type HttpRequest, type HttpAnswer } from './http-exchange.js';
import { onStop } from './on-stop.js';

export { ResponseTooLarge, type HttpAnswer, type HttpRequest } from './http-exchange.js';

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
  // One abort per attempt, fed by the total deadline and by the client's stop signal; both are detached when the
  // attempt ends (the stop signal lives as long as the client, so nothing of an attempt may stay attached to it).
  const attempt = new AttemptAbort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new Error('the request took longer than its total deadline'));
  }, timeouts.requestMs);
  let unwatch: (() => void) | undefined;
  if (options.signal?.aborted) attempt.abort(options.signal.reason);
  else if (options.signal) {
    const stop = options.signal;
    unwatch = onStop(stop, () => attempt.abort(stop.reason));
  }
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  try {
    return await exchange(dispatcher, req, timeouts.requestMs, limit, attempt);
  } catch (error) {
    if (error instanceof ResponseTooLarge) throw error;
    if (options.signal?.aborted) throw new NetworkFailure('aborted', error);
    if (timedOut) throw new NetworkFailure('timeout', error);
    throw new NetworkFailure(classifyNetworkError(error), error);
  } finally {
    clearTimeout(timer);
    unwatch?.();
  }
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
