import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from './api-handler.js';
import { handleControl } from './control-api.js';
import { pickFault } from './faults.js';
import { sendRefusal } from './guess-answers.js';
import { sendError, sendText, splitTarget } from './http-io.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { SimError } from './sim-error.js';
import type { Simulator } from './simulator.js';

const MAX_LOGGED_VALUE = 2_000;

export interface ListenOptions {
  port?: number;
  host?: string;
}

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Applies an injected fault; its outcome (status, and the refusal's code) when the request was taken over (answered, held or dropped).
 * A held request ("timeout") is never answered: it ends when the client or `close()` drops it.
 */
function applyFault(sim: Simulator, res: ServerResponse, req: IncomingMessage): { status: number; error?: string } | undefined {
  const kind = pickFault(sim.faults, sim.faultRandom());
  if (!kind) return undefined;
  // Faults answer on the service's clock too (`Date`, and the reset as a moment on it).
  res.setHeader('date', new Date(sim.now() * 1000).toUTCString());
  const resetAt = sim.now() + 1;
  switch (kind) {
    case 'rate_limit':
      sendRefusal(
        res,
        sim,
        new SimError(400, 'rate_limit_reached', 'Rate limit reached (injected fault)'),
        rateLimitHeaders(sim.realism.rate_limit_headers, { remaining: 0, resetAt }, 1),
      );
      return { status: 400, error: 'rate_limit_reached' };
    case 'server_error':
      sendError(res, new SimError(503, 'server_error', 'Service unavailable (injected fault)'));
      return { status: 503, error: 'server_error' };
    case 'malformed':
      sendText(res, 200, 'application/json; charset=utf-8', '{"meta":{"code":200},"response":{"id":');
      return { status: 200 };
    case 'reset':
      req.socket.destroy();
      return { status: 0 };
    case 'timeout':
      req.resume();
      return { status: 0 };
  }
}

async function route(sim: Simulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const { pathname, query } = splitTarget(req.url ?? '/');
  if (pathname === '/_sim' || pathname.startsWith('/_sim/')) {
    await handleControl(sim, req, res, pathname, query);
    return;
  }
  if (sim.faults.latency_ms) await sim.sleep(sim.faults.latency_ms);
  const faulted = applyFault(sim, res, req);
  const {
    status,
    params,
    error,
    logged: note,
  } = faulted
    ? { ...faulted, params: Object.fromEntries(query) }
    : await handleApi({ rt: sim, router: sim.router, limiter: sim.limiter }, req, res, pathname, query);
  const logged = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(params)) {
    // The token never reaches the log; long values are cut so 200k entries stay a bounded amount of memory.
    if (key !== 'access_token') logged[key] = value.length > MAX_LOGGED_VALUE ? `${value.slice(0, MAX_LOGGED_VALUE)}…` : value;
  }
  sim.requests.append({
    method: req.method ?? '',
    path: pathname.slice(0, MAX_LOGGED_VALUE),
    params: logged,
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    date: sim.now(),
    at_ms: sim.realMs(),
    ...(error ? { error } : {}),
    ...(note ?? {}),
  });
}

/** Serves the simulator over node:http until `close()`. */
export function listen(sim: Simulator, opts: ListenOptions = {}): Promise<RunningSimulator> {
  const server = createServer((req, res) => {
    route(sim, req, res).catch(() => {
      sendError(res, new SimError(500, 'server_error', 'Internal simulator error'));
    });
  });
  server.keepAliveTimeout = 5_000;
  // A malformed request line or header gets a 400 with the conventions' body instead of a bare reset.
  server.on('clientError', (_err, socket) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify({ error: 'invalid_request', error_description: 'Malformed HTTP request' });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  const host = opts.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      const url = `http://${shownHost}:${port}`;
      sim.setBaseUrl(url);
      resolve({
        url,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
