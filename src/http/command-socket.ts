import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { chmod, lstat, mkdtemp, readlink, rm, rmdir, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

/**
 * A Unix socket path longer than this is silently cut by the OS (sun_path holds 108 bytes), and the socket would
 * land elsewhere. A data directory that deep gets the socket in a private temporary directory instead, with
 * `bridge.sock` in the data directory a symbolic link to it (clients resolve the link before connecting).
 */
const MAX_SOCKET_PATH_BYTES = 100;

/** A directory short enough to hold `eb-sock-XXXXXX/bridge.sock` within the limit (the temp directory may be deep too). */
function shortBase(): string {
  const room = MAX_SOCKET_PATH_BYTES - Buffer.byteLength('/eb-sock-XXXXXX/bridge.sock');
  const candidates = [process.env.XDG_RUNTIME_DIR, tmpdir(), '/tmp'].filter((d): d is string => typeof d === 'string' && d !== '');
  const base = candidates.find((d) => Buffer.byteLength(d) <= room);
  if (base === undefined) throw new Error('no directory short enough for the command socket (set TMPDIR to a short path)');
  return base;
}

/** Whether a link at the socket's place is the bridge's own (to `eb-sock-XXXXXX/bridge.sock`), its target a socket or gone. */
async function ownLink(path: string): Promise<string | undefined> {
  const target = await readlink(path).catch(() => undefined);
  if (target === undefined || basename(target) !== 'bridge.sock' || !basename(dirname(target)).startsWith('eb-sock-')) return undefined;
  const entry = await lstat(target).catch(() => undefined);
  return entry === undefined || entry.isSocket() ? target : undefined;
}

/**
 * Removes a socket (or the bridge's own link to one) a killed bridge left; refuses when a live bridge answers on it,
 * and refuses anything else there (a regular file, a directory, another link), which it leaves as it is.
 */
async function clearStale(path: string): Promise<void> {
  let entry: Awaited<ReturnType<typeof lstat>>;
  try {
    entry = await lstat(path);
  } catch {
    return;
  }
  const target = entry.isSocket() ? path : entry.isSymbolicLink() ? await ownLink(path) : undefined;
  if (target === undefined) {
    const what = entry.isSymbolicLink()
      ? 'a symbolic link'
      : entry.isDirectory()
        ? 'a directory'
        : entry.isFile()
          ? 'a regular file'
          : 'not a socket';
    throw new Error(`${path} is ${what}, not a socket the bridge left: not deleting it; move it away to start the bridge`);
  }
  if (await answers(target)) throw new Error(`another bridge answers on ${path}`);
  await unlink(path);
  if (target !== path) {
    await unlink(target).catch(() => undefined);
    await rmdir(dirname(target)).catch(() => undefined);
  }
}

/** Serves `POST /commands` on the socket; a socket file left by a killed bridge is replaced. */
export async function startCommandSocket(deps: CommandSocketDeps, options: { path: string }): Promise<RunningCommandSocket> {
  const server = createServer((req, res) => {
    handle(deps, req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { error: 'the command failed inside the bridge (see its log)' });
      else res.destroy();
    });
  });
  await clearStale(options.path);
  // mkdtemp makes the directory 0700: nobody else may even look for the socket in it.
  const privateDir = Buffer.byteLength(options.path) > MAX_SOCKET_PATH_BYTES ? await mkdtemp(join(shortBase(), 'eb-sock-')) : undefined;
  const bindPath = privateDir ? join(privateDir, 'bridge.sock') : options.path;
  try {
    await listenOn(server, bindPath);
    await chmod(bindPath, 0o600);
    if (privateDir) await symlink(bindPath, options.path);
  } catch (err) {
    server.close();
    if (privateDir) await rm(privateDir, { recursive: true, force: true });
    throw err;
  }
  return {
    path: options.path,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (privateDir) {
        await unlink(options.path).catch(() => undefined);
        await rm(privateDir, { recursive: true, force: true });
      }
    },
  };
}
