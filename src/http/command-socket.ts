import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { chmod, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { refuseCommandRequest } from './command-request-guard.js';

/** The terminal's way in: a Unix socket in the data directory, readable and writable by its owner only. */
export function commandSocketPath(dataDir: string): string {
  return join(dataDir, 'bridge.sock');
}

export interface CommandSocketDeps {
  run(text: string): Promise<{ exitCode: number; output: string }>;
}

export interface RunningCommandSocket {
  readonly path: string;
  close(): Promise<void>;
}

const MAX_COMMAND_BYTES = 10_000;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readCommand(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_COMMAND_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    const text = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown } | null)?.text;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

async function handle(deps: CommandSocketDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if ((req.url ?? '').split('?')[0] !== '/commands') return send(res, 404, { error: 'not found' });
  const refused = refuseCommandRequest(req.method, req.headers);
  if (refused) return send(res, refused === 'use POST' ? 405 : 403, { error: refused });
  const text = await readCommand(req);
  if (text === undefined) return send(res, 400, { error: 'body must be {"text": "<command>"}' });
  return send(res, 200, await deps.run(text));
}

/** Whether something answers on a Unix socket (a live bridge) rather than a file left by a killed one. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function trySetUmask(mask: number): number | undefined {
  try {
    return process.umask(mask);
  } catch {
    return undefined;
  }
}

function listenOn(server: ReturnType<typeof createServer>, path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is created owner-only from the start: no moment where another user could connect. (In a worker
    // thread umask cannot be set; the chmod after listening and the owner-only data directory still hold.)
    const previous = trySetUmask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      if (previous !== undefined) trySetUmask(previous);
    }
  });
}

/** Serves `POST /commands` on the socket; a socket file left by a killed bridge is replaced. */
export async function startCommandSocket(deps: CommandSocketDeps, options: { path: string }): Promise<RunningCommandSocket> {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'the command failed inside the bridge (see its log)' });
      else res.destroy();
    });
  });
  try {
    await listenOn(server, options.path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (await answers(options.path)) throw new Error(`another bridge answers on ${options.path}`);
    await unlink(options.path);
    await listenOn(server, options.path);
  }
  await chmod(options.path, 0o600);
  return {
    path: options.path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
