import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askCommandSocket } from '../../src/http/ask-command-socket.js';
import { commandSocketPath, startCommandSocket, type RunningCommandSocket } from '../../src/http/command-socket.js';

let dir: string;
let socket: RunningCommandSocket | undefined;
let ran: string[];
const run = async (text: string) => {
  ran.push(text);
  return { exitCode: 0, output: `ran ${text}` };
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eb-sock-'));
  ran = [];
});
afterEach(async () => {
  await socket?.close();
  socket = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request on the socket with the headers a browser or a proxy would add. */
function rawPost(path: string, headers: Record<string, string>, body = JSON.stringify({ text: 'bot pause' })): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: path, path: '/commands', method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A real socket file with nobody behind it: a child process listens on it and is killed (SIGKILL leaves the file). */
async function leaveStaleSocket(path: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the listening child exited early (${code})`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

describe('the terminal command socket', () => {
  it('takes a manager command on a socket in the data directory that only its owner may open', async () => {
    socket = await startCommandSocket({ run }, { path: commandSocketPath(dir) });
    expect(socket.path).toBe(join(dir, 'bridge.sock'));
    const st = statSync(socket.path);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    expect(await askCommandSocket(socket.path, 'status')).toEqual({ exitCode: 0, output: 'ran status' });
    expect(ran).toEqual(['status']);
  });

  it.each([
    ['a foreign Origin (a web page in a browser)', { origin: 'https://evil.example' }],
    ['a forwarding header (a reverse proxy)', { 'x-forwarded-for': '203.0.113.7' }],
    ['a Forwarded header', { forwarded: 'for=203.0.113.7' }],
    ['a foreign Host', { host: 'evil.example' }],
  ])('refuses a command carrying %s', async (_what, extra) => {
    socket = await startCommandSocket({ run }, { path: commandSocketPath(dir) });
    expect(await rawPost(socket.path, { 'content-type': 'application/json', ...extra })).toBe(403);
    expect(ran).toEqual([]);
  });

  it('refuses a text/plain body, which a browser may send without asking', async () => {
    socket = await startCommandSocket({ run }, { path: commandSocketPath(dir) });
    expect(await rawPost(socket.path, { 'content-type': 'text/plain' })).toBe(403);
    expect(ran).toEqual([]);
  });

  it('replaces a socket left behind by a killed bridge', async () => {
    const path = commandSocketPath(dir);
    await leaveStaleSocket(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    socket = await startCommandSocket({ run }, { path });
    expect(await askCommandSocket(socket.path, 'help')).toEqual({ exitCode: 0, output: 'ran help' });
  });

  it.each([
    ['a regular file', (path: string) => writeFileSync(path, 'keep me'), /regular file/],
    ['a symbolic link', (path: string) => symlinkSync(join(dir, 'elsewhere'), path), /symbolic link/],
  ])('refuses %s where the socket goes, and leaves it as it is', async (_what, make, reason) => {
    const path = commandSocketPath(dir);
    writeFileSync(join(dir, 'elsewhere'), 'theirs');
    make(path);
    const before = lstatSync(path);
    await expect(startCommandSocket({ run }, { path })).rejects.toThrow(reason);
    const after = lstatSync(path);
    expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
    expect(readFileSync(join(dir, 'elsewhere'), 'utf8')).toBe('theirs');
  });

  it('refuses to start while another bridge answers on the socket', async () => {
    socket = await startCommandSocket({ run }, { path: commandSocketPath(dir) });
    await expect(startCommandSocket({ run }, { path: commandSocketPath(dir) })).rejects.toThrow(/another bridge answers/);
    expect(await askCommandSocket(socket.path, 'status')).toEqual({ exitCode: 0, output: 'ran status' });
  });

  it('works from a data directory too deep for a Unix socket path, through a link to a private socket', async () => {
    const deep = join(dir, 'a'.repeat(60), 'b'.repeat(60));
    mkdirSync(deep, { recursive: true });
    socket = await startCommandSocket({ run }, { path: commandSocketPath(deep) });
    expect(lstatSync(socket.path).isSymbolicLink()).toBe(true);
    const target = realpathSync(socket.path);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(target)).mode & 0o777).toBe(0o700);
    expect(await askCommandSocket(socket.path, 'status')).toEqual({ exitCode: 0, output: 'ran status' });
    await socket.close();
    socket = undefined;
    expect(existsSync(commandSocketPath(deep))).toBe(false);
    expect(existsSync(dirname(target))).toBe(false);
  });

  it('says nobody runs when there is no socket', async () => {
    expect(await askCommandSocket(commandSocketPath(dir), 'status')).toBeUndefined();
  });
});
