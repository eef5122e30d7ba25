import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { FailedAttempts } from './webhook-attempts.js';

/** What the bridge's HTTP server asks of the running bridge. */
export interface HttpServerDeps {
  readiness(): { ready: boolean; reason?: string };
  metricsText(): Promise<string>;
  readonly metricsContentType: string;
  /** Accepts a webhook push (already parsed JSON); resolves once the mentions are durable. Undefined: webhook off. */
  readonly webhook?: {
    readonly secret: string;
    accept(body: unknown): Promise<{ accepted: number; skipped?: Record<string, number> } | { error: string }>;
  };
  readonly maxBodyBytes?: number;
  /** Manager commands from `engage-bridge cmd` on this machine (loopback callers only). */
  readonly commands?: { run(text: string): Promise<{ exitCode: number; output: string }> };
}

function fromLoopback(req: IncomingMessage): boolean {
  const a = req.socket.remoteAddress ?? '';
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
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

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(deps: HttpServerDeps, failedAttempts: FailedAttempts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (req.method === 'GET' && path === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method === 'GET' && path === '/readyz') {
    const r = deps.readiness();
    return send(res, r.ready ? 200 : 503, r.ready ? { status: 'ready' } : { status: 'not ready', reason: r.reason });
  }
  if (req.method === 'GET' && path === '/metrics') return send(res, 200, await deps.metricsText(), deps.metricsContentType);
  if (path === '/commands' && deps.commands) {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    if (!fromLoopback(req)) return send(res, 403, { error: 'manager commands are taken from this machine only' });
    const text = await readBody(req, 10_000);
    let body: unknown;
    try {
      body = text === undefined ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const command = (body as { text?: unknown } | undefined)?.text;
    if (typeof command !== 'string') return send(res, 400, { error: 'body must be {"text": "<command>"}' });
    return send(res, 200, await deps.commands.run(command));
  }
  if (path === '/webhooks/engage' || path.startsWith('/webhooks/engage/')) {
    if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
    // The header keeps the secret out of proxy logs; the path form stays for services that cannot set headers.
    const given = path === '/webhooks/engage' ? headerSecret(req) : decodeURIComponent(path.slice('/webhooks/engage/'.length));
    const caller = req.socket.remoteAddress ?? '';
    const waitMs = failedAttempts.blockedForMs(caller);
    if (waitMs > 0) {
      res.setHeader('retry-after', String(Math.ceil(waitMs / 1000)));
      return send(res, 429, { error: 'too many failed attempts; try again later' });
    }
    if (!deps.webhook || !sameSecret(given, deps.webhook.secret)) {
      failedAttempts.fail(caller);
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
    return send(res, 202, { accepted: result.accepted, ...(result.skipped ? { skipped: result.skipped } : {}) });
  }
  return send(res, 404, { error: 'not found' });
}

/** Health, readiness, metrics and the webhook, on node:http. */
export async function startHttpServer(deps: HttpServerDeps, options: { host: string; port: number }): Promise<RunningHttpServer> {
  const failedAttempts = new FailedAttempts();
  const server: Server = createServer((req, res) => {
    handle(deps, failedAttempts, req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: (err as Error).message });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
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
