import { describe, it, expect, afterEach } from 'vitest';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/log.js';
import { startHttpServer, type RunningHttpServer, type HttpServerDeps } from '../../src/http/http-server.js';
import { READINESS_TEXTS } from '../../src/http/readiness-answer.js';
import { createBridgeMetrics, METRICS_CONTENT_TYPE } from '../../src/metrics/bridge-metrics.js';

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function deps(overrides: Partial<HttpServerDeps> = {}): HttpServerDeps & { accepted: unknown[] } {
  const metrics = createBridgeMetrics({ defaultMetrics: false });
  const accepted: unknown[] = [];
  return {
    accepted,
    readiness: () => ({ ready: true }),
    metricsText: () => metrics.text(),
    metricsContentType: METRICS_CONTENT_TYPE,
    webhook: {
      secret: 'hook-secret',
      accept: async (body) => {
        if (!Array.isArray(body)) return { error: 'expected a JSON array of mentions' };
        accepted.push(...body);
        return { accepted: body.length };
      },
    },
    ...overrides,
  };
}

describe('bridge HTTP server', () => {
  it('answers health, readiness and metrics', async () => {
    server = await startHttpServer(deps(), { host: '127.0.0.1', port: 0 });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const metrics = await fetch(`${server.url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('engage_bridge_inbound_messages_total');
  });

  it('answers not ready with a fixed code and short text, and leaves the details to the log', async () => {
    const logged: unknown[] = [];
    const detail = 'the last successful poll was 300 s ago: GET /1001/inbox/mentions: 500 {"error":"contact +32470000031 Ann"}';
    server = await startHttpServer(
      deps({ readiness: () => ({ ready: false, code: 'poll-stale', detail }), log: { warn: (o) => logged.push(o) } }),
      { host: '127.0.0.1', port: 0 },
    );
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain('32470000031');
    expect(text).not.toContain('error');
    expect(JSON.parse(text)).toEqual({ status: 'not ready', code: 'poll-stale', reason: READINESS_TEXTS['poll-stale'] });
    expect(logged).toEqual([{ code: 'poll-stale', detail }]);
  });

  it('answers a readiness code it does not know with the generic one, never the words it came with', async () => {
    const readiness = () => ({ ready: false, code: 'contact +32470000031 unreachable', reason: 'raw API text +32470000031' });
    server = await startHttpServer(deps({ readiness }), { host: '127.0.0.1', port: 0 });
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(text).not.toContain('32470000031');
    expect(JSON.parse(text)).toMatchObject({ code: 'not-ready' });
  });

  it('accepts a webhook push with the right secret and refuses the wrong one', async () => {
    const d = deps();
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    const ok = await fetch(`${server.url}/webhooks/engage/hook-secret`, { method: 'POST', body: JSON.stringify([{ id: '1' }]) });
    expect(ok.status).toBe(202);
    const wrong = await fetch(`${server.url}/webhooks/engage/nope`, { method: 'POST', body: '[]' });
    expect(wrong.status).toBe(401);
    const bad = await fetch(`${server.url}/webhooks/engage/hook-secret`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    const notArray = await fetch(`${server.url}/webhooks/engage/hook-secret`, { method: 'POST', body: '{}' });
    expect(notArray.status).toBe(400);
    expect(d.accepted).toEqual([{ id: '1' }]);
  });

  it('accepts the webhook secret in a header, keeping it out of the path', async () => {
    const d = deps();
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    const body = JSON.stringify([{ id: '2' }]);
    const header = await fetch(`${server.url}/webhooks/engage`, { method: 'POST', headers: { 'x-webhook-secret': 'hook-secret' }, body });
    expect(header.status).toBe(202);
    const bearer = await fetch(`${server.url}/webhooks/engage`, { method: 'POST', headers: { authorization: 'Bearer hook-secret' }, body });
    expect(bearer.status).toBe(202);
    const wrong = await fetch(`${server.url}/webhooks/engage`, { method: 'POST', headers: { 'x-webhook-secret': 'nope' }, body });
    expect(wrong.status).toBe(401);
    const none = await fetch(`${server.url}/webhooks/engage`, { method: 'POST', body });
    expect(none.status).toBe(401);
    expect(d.accepted).toEqual([{ id: '2' }, { id: '2' }]);
  });

  it('refuses a caller for a while after too many wrong secrets, but never a request with the right one', async () => {
    const d = deps();
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    for (let i = 0; i < 10; i++) {
      const wrong = await fetch(`${server.url}/webhooks/engage/guess-${i}`, { method: 'POST', body: '[]' });
      expect(wrong.status).toBe(401);
    }
    const blocked = await fetch(`${server.url}/webhooks/engage/guess-10`, { method: 'POST', body: '[]' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    const right = await fetch(`${server.url}/webhooks/engage/hook-secret`, { method: 'POST', body: JSON.stringify([{ id: '3' }]) });
    expect(right.status).toBe(202);
    const header = await fetch(`${server.url}/webhooks/engage`, {
      method: 'POST',
      headers: { 'x-webhook-secret': 'hook-secret' },
      body: '[{"id":"4"}]',
    });
    expect(header.status).toBe(202);
    expect(d.accepted).toEqual([{ id: '3' }, { id: '4' }]);
  });

  it('answers a malformed webhook path with 401, counts it as a failure and in the metric, and logs no line per request', async () => {
    const refused: string[] = [];
    const logged: unknown[] = [];
    const d = deps({ countRefused: (r) => refused.push(r), log: { warn: (o) => logged.push(o) } });
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${server.url}/webhooks/engage/%zz${i}`, { method: 'POST', body: '[]' });
      expect(res.status).toBe(401);
    }
    expect((await fetch(`${server.url}/webhooks/engage/%zz`, { method: 'POST', body: '[]' })).status).toBe(429);
    expect(refused).toEqual([...Array(10).fill('malformed'), 'blocked']);
    expect(logged).toHaveLength(1);
  });

  it('takes a push in several chunks whole, and answers one over the size limit with 413 without taking it', async () => {
    const d = deps({ maxBodyBytes: 2048 });
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    const items = Array.from({ length: 60 }, (_, i) => ({ id: String(i), text: 'x'.repeat(40) }));
    const url = `${server.url}/webhooks/engage/hook-secret`;
    const big = await fetch(url, { method: 'POST', body: JSON.stringify(items) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'body too large' });
    expect(d.accepted).toEqual([]);
    const small = items.slice(0, 20);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const text = new TextEncoder().encode(JSON.stringify(small));
        for (let at = 0; at < text.length; at += 300) controller.enqueue(text.slice(at, at + 300));
        controller.close();
      },
    });
    const ok = await fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(ok.status).toBe(202);
    expect(d.accepted).toEqual(small);
  });

  it('refuses the webhook when none is configured', async () => {
    server = await startHttpServer(deps({ webhook: undefined }), { host: '127.0.0.1', port: 0 });
    const res = await fetch(`${server.url}/webhooks/engage/anything`, { method: 'POST', body: '[]' });
    expect(res.status).toBe(401);
  });

  it('answers an unknown path with 404', async () => {
    server = await startHttpServer(deps(), { host: '127.0.0.1', port: 0 });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });
});

describe('bridge HTTP server failures', () => {
  it('answers a failure inside a handler with a fixed text, leaving its details to the log', async () => {
    const logged: unknown[] = [];
    server = await startHttpServer(
      deps({
        metricsText: async () => {
          throw new Error('GET /1001/contacts: 500 {"name":"Ann +32470000031"}');
        },
        log: { warn: (o) => logged.push(o) },
      }),
      { host: '127.0.0.1', port: 0 },
    );
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('32470000031');
    expect(logged).toHaveLength(1);
  });
});

describe('bridge HTTP server limits', () => {
  it('disconnects a client that holds its headers past the header timeout', async () => {
    server = await startHttpServer(deps({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 1000, maxConnections: 10 } }), {
      host: '127.0.0.1',
      port: 0,
    });
    const socket = connect(server.port, '127.0.0.1');
    socket.write('POST /webhooks/engage HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += String(chunk);
    });
    const closed = await new Promise<boolean>((resolve) => {
      const deadline = setTimeout(() => resolve(false), 20_000);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        clearTimeout(deadline);
        resolve(true);
      });
    });
    socket.destroy();
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('never writes the webhook secret of a failed request to the log, raw, percent-encoded or base64', async () => {
    const secret = 'a+b/c=d-0123456789-0123456789-0123456789==';
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger({ level: 'info', pretty: false, destination, secrets: [secret] });
    const d = deps({
      log,
      webhook: {
        secret,
        accept: async () => {
          throw new Error(`failed on ${Buffer.from(secret).toString('base64')} and ${encodeURIComponent(secret).toLowerCase()}`);
        },
      },
    });
    server = await startHttpServer(d, { host: '127.0.0.1', port: 0 });
    const res = await fetch(`${server.url}/webhooks/engage/${encodeURIComponent(secret)}`, { method: 'POST', body: '[]' });
    expect(res.status).toBe(500);
    const text = lines.join('');
    expect(text).toContain('request failed');
    for (const form of [
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      Buffer.from(secret).toString('base64'),
    ]) {
      expect(text).not.toContain(form);
    }
  });
});
