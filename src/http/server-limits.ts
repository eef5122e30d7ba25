import type { Server, ServerOptions } from 'node:http';

/** What one HTTP port allows a client: how long to send its headers and its whole request, and how many connections. */
export interface ServerLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 512 };

/**
 * Options for `http.createServer`. Node checks the timeouts only every `connectionsCheckingInterval` (30 s by
 * default): it is brought down to a quarter of the header timeout (at most 1 s) so that a slow client is cut off
 * close to the limit, not up to 30 s after it.
 */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // Node requires requestTimeout >= headersTimeout (0 would turn it off).
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** The connection cap: past it, Node closes each new connection at once. */
export function capConnections(server: Server, limits: ServerLimits): void {
  server.maxConnections = limits.maxConnections;
}
