import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { commandSocketPath, startCommandSocket } from '../../src/http/command-socket.js';
import { DEFAULT_FLOWS, fakeIo, startSimulator, tempDir, type TestSimulator } from './cli-helpers.js';

const ANN = '32470000001';
let sim: TestSimulator;
let dir: { path: string; remove(): Promise<void> };
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator();
  dir = await tempDir();
  // No bridge runs in this data directory (no socket there), so cmd opens the store itself; a bridge started
  // by a test listens on a port of its own choosing.
  env = {
    ENGAGE_BASE_URL: sim.url,
    ENGAGE_ACCESS_TOKEN: 'sim-token',
    ENGAGE_ACCOUNT_ID: '1001',
    BRIDGE_FLOW_FILE: DEFAULT_FLOWS,
    BRIDGE_DATA_DIR: join(dir.path, 'data'),
    BRIDGE_HTTP_HOST: '127.0.0.1',
    BRIDGE_HTTP_PORT: '0',
  };
  await sim.control('/_sim/inbound', { channel: 'whatsapp', author: { id: ANN, name: 'Ann' }, text: 'hello' });
});
afterAll(async () => {
  await sim.close();
  await dir.remove();
});

async function cmd(text: string) {
  const io = fakeIo(env, dir.path);
  const code = await runCli(['cmd', text], io);
  return { code, out: io.out(), err: io.err() };
}

async function ownerOf(serviceId: string): Promise<string> {
  const res = await fetch(`${sim.url}/1001/inbox/handover/whatsapp/${serviceId}`, { headers: { authorization: 'Bearer sim-token' } });
  return ((await res.json()) as { response: { owner: string } }).response.owner;
}

async function pausedForAll(): Promise<boolean> {
  const { openSqliteStore } = await import('../../src/storage/index.js');
  const store = await openSqliteStore({ dataDir: join(dir.path, 'data') });
  try {
    return (await store.getMeta()).values['pausedForAll'] === true;
  } finally {
    await store.close();
  }
}

describe('engage-bridge cmd without a running bridge', () => {
  it('answers help on stdout with exit 0, from a store it opens itself', async () => {
    const { code, out, err } = await cmd('help');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain('handover <service>/<service_id> [status|bot|agents]');
    // It opened the bridge's store in BRIDGE_DATA_DIR, and let go of it again.
    expect(existsSync(join(dir.path, 'data', 'bridge.db'))).toBe(true);
    expect(await pausedForAll()).toBe(false);
  });

  it('says on stderr, with exit 1, that Engage does not know a contact', async () => {
    const { code, out, err } = await cmd('handover whatsapp/1 status');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^whatsapp\/1: .*Engage does not know whatsapp\/1/);
  });

  it('shows and changes who owns a contact through the Engage API', async () => {
    const before = await cmd(`handover whatsapp/${ANN} status`);
    expect(before.code).toBe(0);
    expect(before.out).toContain(`whatsapp/${ANN}`);
    const handed = await cmd(`handover whatsapp/${ANN} agents`);
    expect(handed.code).toBe(0);
    expect(await ownerOf(ANN)).toBe('agents');
  });

  it('refuses an unknown command with the list of commands and exit 2', async () => {
    const { code, out, err } = await cmd('bogus');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.split('\n')[0]).toBe(
      '"bogus" is not a command: the commands are help, tag, contact, hours, handover, bot, escalations, csat, release, forget, status, shadow.',
    );
    expect(err).toContain('Commands:');
  });

  it('pauses (`bot pause`, for all) and resumes the bot for everyone, remembered by the store between two commands', async () => {
    const paused = await cmd('bot pause');
    expect(paused.code).toBe(0);
    expect(paused.out).toBe('Bot paused for every contact.\n');
    expect(await pausedForAll()).toBe(true);
    // A second command is a new process as far as the bridge knows: it reads the pause from the store.
    const status = await cmd('status');
    expect(status.out).toContain('Bot: PAUSED for every contact');
    const resumed = await cmd('bot resume');
    expect(resumed.code).toBe(0);
    expect(resumed.out).toBe('Bot resumed for every contact.\n');
    expect(await pausedForAll()).toBe(false);
    expect((await cmd('status')).out).toContain('Bot: running');
  });

  it('waits for the work a command wakes before it closes the store', async () => {
    const BOB = '32470000002';
    const said = (await sim.control('/_sim/inbound', { channel: 'whatsapp', author: { id: BOB, name: 'Bob' }, text: 'hello' })) as {
      id: string;
      topic_ids?: string[];
      date: { added: number };
    };
    expect((await cmd(`bot pause whatsapp/${BOB}`)).code).toBe(0);
    // A message the bridge recorded while the contact was paused, not yet decided.
    const { openSqliteStore } = await import('../../src/storage/index.js');
    const key = `whatsapp:${BOB}`;
    const store = await openSqliteStore({ dataDir: join(dir.path, 'data') });
    try {
      await store.recordInbound({
        id: said.id,
        topicId: String(said.topic_ids?.[0] ?? ''),
        key,
        addedAt: said.date.added,
        payload: { kind: 'customer', text: 'hello', clicked: [] },
      });
    } finally {
      await store.close();
    }
    // Resuming wakes the contact's worker: cmd returns only when that work is done and on disk.
    const resumed = await cmd(`bot resume whatsapp/${BOB}`);
    expect(resumed.code).toBe(0);
    const after = await openSqliteStore({ dataDir: join(dir.path, 'data') });
    try {
      expect(await after.pendingInbound(key)).toEqual([]);
    } finally {
      await after.close();
    }
  });

  it('keeps the malformed command in the audit log, as Slack does', async () => {
    await cmd('bogus again');
    const { openSqliteStore } = await import('../../src/storage/index.js');
    const store = await openSqliteStore({ dataDir: join(dir.path, 'data') });
    try {
      const audit = await store.listAudit();
      expect(audit.some((a) => a.actor === 'cli:terminal' && a.action === 'malformed' && a.subject === 'bogus again')).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('engage-bridge cmd with a bridge running', () => {
  it('asks the running bridge on its socket in the data directory and prints its answer', async () => {
    const received: string[] = [];
    const socket = await startCommandSocket(
      {
        run: async (text) => {
          received.push(text);
          return { exitCode: 0, output: 'answered by the running bridge' };
        },
      },
      { path: commandSocketPath(mkdirSync(join(dir.path, 'data'), { recursive: true }) ?? join(dir.path, 'data')) },
    );
    try {
      const io = fakeIo(env, dir.path);
      expect(await runCli(['cmd', 'status'], io)).toBe(0);
      expect(io.out()).toBe('answered by the running bridge\n');
      expect(received).toEqual(['status']);
    } finally {
      await socket.close();
    }
  });

  it('never sends the command to the HTTP listener', async () => {
    const received: unknown[] = [];
    const http = createServer((req, res) => {
      received.push(req.url);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ exitCode: 0, output: 'answered over HTTP' }));
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    try {
      const io = fakeIo({ ...env, BRIDGE_HTTP_PORT: String((http.address() as AddressInfo).port) }, dir.path);
      await runCli(['cmd', 'help'], io);
      expect(io.out()).not.toContain('answered over HTTP');
      expect(received).toEqual([]);
    } finally {
      await new Promise<void>((r) => http.close(() => r()));
    }
  });
});
