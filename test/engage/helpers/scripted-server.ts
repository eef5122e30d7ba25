import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoggedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Query and form body decoded together (GET and DELETE send theirs in the query, POST in the body). */
  params: URLSearchParams;
}

export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Destroy the socket without answering (a reset). */
  reset?: boolean;
  /** Answer only once this settles (to hold a request in flight). */
  hold?: Promise<unknown>;
}

/** A loopback HTTP server that answers from a queue and logs every request. */
export interface ScriptedServer {
  baseUrl: string;
  requests: LoggedRequest[];
  /** Queue answers; when the queue is empty, `fallback` answers. */
  script(...answers: ScriptedAnswer[]): void;
  fallback: (req: LoggedRequest) => ScriptedAnswer;
  /** Connections opened to it so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export function ok(response: unknown, meta: Record<string, unknown> = { code: 200 }): ScriptedAnswer {
  return { status: 200, body: { meta, response } };
}

/** `keepAliveMs`: how long an idle connection is kept (undici gives a hint under 2 s up at once). */
export async function startScriptedServer(o: { keepAliveMs?: number } = {}): Promise<ScriptedServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: LoggedRequest[] = [];
  let connections = 0;
  const state: ScriptedServer = {
    baseUrl: '',
    requests,
    get connections() {
      return connections;
    },
    script: (...answers) => queue.push(...answers),
    fallback: () => ({ status: 500, body: { error: 'server_error', error_description: 'nothing scripted' } }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '/';
      // Query and form body together (GET and DELETE send theirs in the query, POST in the body).
      const params = new URLSearchParams([...new URL(url, 'http://x').searchParams, ...new URLSearchParams(body)]);
      const logged: LoggedRequest = { method: req.method ?? '', url, headers: req.headers, body, params };
      requests.push(logged);
      const answer = queue.shift() ?? state.fallback(logged);
      void (answer.hold ?? Promise.resolve()).then(() => respond(answer));
    });
    const respond = (answer: ScriptedAnswer): void => {
      if (answer.reset === true) {
        req.socket.destroy();
        return;
      }
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? null);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    };
  });
  server.keepAliveTimeout = o.keepAliveMs ?? 1000;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = state.close;
  state.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return state;
}
