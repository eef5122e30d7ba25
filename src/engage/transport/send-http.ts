import { Agent, request, type Dispatcher } from 'undici';
import type { HeaderBag } from '../errors/rate-limit-headers.js';
import type { ConnectionFailure } from '../errors/error-kinds.js';

export interface Timeouts {
  /** TCP + TLS handshake. */
  connectMs: number;
  /** Waiting for the answer's headers, and then between body chunks. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = { connectMs: 5_000, requestMs: 30_000 };

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
 * below 1.2 (the service disabled 1.0; we do not go lower than 1.2 either).
 */
export function createDefaultDispatcher(timeouts: Readonly<Timeouts>): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 16,
    connect: { timeout: timeouts.connectMs, minVersion: 'TLSv1.2' },
  });
}

export async function sendHttp(dispatcher: Dispatcher, req: HttpRequest, timeouts: Readonly<Timeouts>): Promise<HttpAnswer> {
  try {
    const res = await request(req.url, {
      dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body,
      headersTimeout: timeouts.requestMs,
      bodyTimeout: timeouts.requestMs,
    });
    const bodyText = await res.body.text();
    return { status: res.statusCode, headers: res.headers, bodyText };
  } catch (error) {
    throw new NetworkFailure(classifyNetworkError(error), error);
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
