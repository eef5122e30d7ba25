import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { readinessAnswer, type Readiness } from './readiness-answer.js';
import { capConnections, DEFAULT_SERVER_LIMITS, serverOptions, type ServerLimits } from './server-limits.js';
import { refusalReporter } from './refusal-reporter.js';

/** Where the HTTP server reports what it does not tell its callers. */
export interface HttpServerLog {
  warn(obj: object, msg: string): void;
}
import { FailedAttempts } from './webhook-attempts.js';

/** What the bridge's HTTP server asks of the running bridge. */
export interface HttpServerDeps {
  /** Only its fixed code reaches the caller; its detail goes to `log`. */
  readiness(): Readiness;
  readonly log?: HttpServerLog;
  metricsText(): Promise<string>;
  readonly metricsContentType: string;
  /**
   * Accepts a webhook push (already parsed JSON); resolves once the mentions are durable. Undefined: webhook off.
   * `unavailable`: this instance takes nothing now (a standby), 503 so the sender tries again.
   */
  readonly webhook?: {
    readonly secret: string;
    accept(body: unknown): Promise<{ accepted: number; skipped?: Record<string, number> } | { error: string } | { unavailable: string }>;
  };
  readonly maxBodyBytes?: number;
  /** `/metrics` answers only callers on the loopback interface (others get 404); default: everyone. */
  readonly metricsLoopbackOnly?: boolean;
  /** Timeouts and connection cap of the port (default DEFAULT_SERVER_LIMITS). */
  readonly limits?: ServerLimits;
  /** Counts a refused webhook request by reason (the metric); warnings about them are sampled. */
  readonly countRefused?: (reason: string) => void;
}

function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

/** Whether `/metrics` answers a caller at this address (`BRIDGE_METRICS_HOST=loopback`: only 127.0.0.0/8 and ::1). */
export function metricsAnswered(remoteAddress: string | undefined, loopbackOnly: boolean): boolean {
  return !loopbackOnly || isLoopback(remoteAddress);
}

const WEBHOOK_PREFIX = '/webhooks/engage/';

/** A path as it may be logged: the secret a caller put in a webhook path is never shown, in any encoding. */
export function loggablePath(url: string | undefined): string {
  const path = (url ?? '').split('?')[0] ?? '';
  return (path.startsWith(WEBHOOK_PREFIX) ? `${WEBHOOK_PREFIX}[redacted]` : path).slice(0, 100);
}

/** The secret in a webhook path, or undefined when the path is not valid percent-encoding. */
function pathSecret(path: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(WEBHOOK_PREFIX.length));
  } catch {
    return undefined;
  }
}

export interface RunningHttpServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = type === 'application/json' ? JSON.stringify(body) : String(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** `X-Webhook-Secret: <secret>` or `Authorization: Bearer <secret>`. */
function headerSecret(req: IncomingMessage): string {
  const direct = req.headers['x-webhook-secret'];
  if (typeof direct === 'string') return direct;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The body as text, or undefined past `limit` bytes (the rest is not read). Events, not `for await`: the async
 * iterator's promise per chunk cost more than the rest of taking a one-chunk push.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
    // Cut short before its end (a no-op once it ended).
    req.once('close', () => reject(new Error('the request closed before its end')));
  });
}

const lastLogged = new WeakMap<HttpServerDeps, string>();

/** Probes come every few seconds: a reason is logged when it changes, not on every probe. */
function logNotReady(deps: HttpServerDeps, code: string, detail: string | undefined): void {
  const key = `${code}\n${detail ?? ''}`;
  if (lastLogged.get(deps) === key) return;
  lastLogged.set(deps, key);
  deps.log?.warn({ code, ...(detail ? { detail } : {}) }, 'not ready');
}

async function handle(
  deps: HttpServerDeps,
  failedAttempts: FailedAttempts,
  refused: (reason: string) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (req.method === 'GET' && path === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method === 'GET' && path === '/readyz') {
    const r = deps.readiness();
    const answer = readinessAnswer(r);
    if (answer.status !== 'ready') logNotReady(deps, answer.code, r.detail);
    return send(res, r.ready ? 200 : 503, answer);
  }
  if (req.method === 'GET' && path === '/metrics') {
    if (!metricsAnswered(req.socket.remoteAddress, deps.metricsLoopbackOnly === true)) return send(res, 404, { error: 'not found' });
    return send(res, 200, await deps.metricsText(), deps.metricsContentType);
  }
  if (path === '/webhooks/engage' || path.startsWith(WEBHOOK_PREFIX)) {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    // The header keeps the secret out of proxy logs; the path form stays for services that cannot set headers.
    const given = path === '/webhooks/engage' ? headerSecret(req) : pathSecret(path);
    const caller = req.socket.remoteAddress ?? '';
    // The right secret always passes: failed attempts from an address (behind a proxy, everyone's) never lock out
    // the service's pushes. Only the wrong ones wait.
    if (!deps.webhook || given === undefined || !sameSecret(given, deps.webhook.secret)) {
      const waitMs = failedAttempts.blockedForMs(caller);
      if (waitMs > 0) {
        refused('blocked');
        res.setHeader('retry-after', String(Math.ceil(waitMs / 1000)));
        return send(res, 429, { error: 'too many failed attempts; try again later' });
      }
      failedAttempts.fail(caller);
      refused(given === undefined ? 'malformed' : 'secret');
      return send(res, 401, { error: 'wrong secret' });
    }
    const text = await readBody(req, deps.maxBodyBytes ?? 5_000_000);
    if (text === undefined) return send(res, 413, { error: 'body too large' });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    const result = await deps.webhook.accept(body);
    if ('error' in result) return send(res, 400, { error: result.error });
    if ('unavailable' in result) return send(res, 503, { error: result.unavailable });
    return send(res, 202, { accepted: result.accepted, ...(result.skipped ? { skipped: result.skipped } : {}) });
  }
  return send(res, 404, { error: 'not found' });
}

/** Health, readiness, metrics and the webhook, on node:http. Manager commands are never taken here (see command-socket). */
export async function startHttpServer(deps: HttpServerDeps, options: { host: string; port: number }): Promise<RunningHttpServer> {
  const failedAttempts = new FailedAttempts();
  const limits = deps.limits ?? DEFAULT_SERVER_LIMITS;
  const refused = refusalReporter('webhook requests', {
    ...(deps.countRefused ? { count: deps.countRefused } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
  const server: Server = createServer(serverOptions(limits), (req, res) => {
    handle(deps, failedAttempts, refused, req, res).catch((err: unknown) => {
      // The error's text may quote an API answer or a customer's data: it goes to the log, the caller gets none.
      deps.log?.warn({ path: loggablePath(req.url), err: (err as Error)?.message }, 'request failed');
      if (!res.headersSent) send(res, 500, { error: 'internal error (details in the log)' });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
