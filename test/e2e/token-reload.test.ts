import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { REPO, waitFor } from './harness.js';
import { testTempDir } from '../support/temp-dir.js';

let child: ChildProcess | undefined;
let server: RunningSimulator | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await server?.close();
  child = undefined;
  server = undefined;
});

const SCOPES = ['accounts_read', 'accounts_write', 'accounts_handover'];

describe('a revoked token', () => {
  it('pauses the bridge until a new token is put in .env and SIGHUP reloads it, losing no message', async () => {
    const handle = createSimulator();
    const sim = handle.sim;
    server = await handle.listen({ host: '127.0.0.1', port: 0 });
    sim.addToken('old-token-1', 'u7', SCOPES);
    const cwd = testTempDir('eb-reload-');
    const envFile = (token: string) =>
      writeFileSync(join(cwd, '.env'), `ENGAGE_ACCESS_TOKEN=${token}\nENGAGE_ACCOUNT_ID=1001\nENGAGE_BASE_URL=${server!.url}\n`);
    envFile('old-token-1');
    // The loader by path: the working directory is a temporary one, where `tsx` would not resolve.
    const tsx = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href;
    child = spawn(process.execPath, ['--import', tsx, join(REPO, 'src/cli.ts'), 'start'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BRIDGE_DATA_DIR: join(cwd, 'data'),
        BRIDGE_HTTP_HOST: '127.0.0.1',
        BRIDGE_HTTP_PORT: '0',
        BRIDGE_POLL_INTERVAL_MS: '150',
        BRIDGE_FLOW_FILE: join(REPO, 'config/flows.yaml'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    // The first start's read (newest mention, then the window) is done once a later poll has begun.
    const polls = () => sim.requests.after(0).filter((r) => r.path.endsWith('/inbox/mentions')).length;
    await waitFor('the first read and the poll after it', () => polls() >= 3, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; the bridge said: ${out}`);
    });
    sim.revoke('u7');
    const say = async (text: string) => {
      const res = await fetch(`${server!.url}/_sim/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'whatsapp', author: { id: '32475550001', name: 'Lea' }, text }),
      });
      return ((await res.json()) as { id: string }).id;
    };
    const first = await say('hello');
    await waitFor('the refusal in the log', () => out.includes('re-authorise'), 20_000);
    expect(sim.outbound.after(0)).toHaveLength(0);
    sim.addToken('new-token-2', 'u8', SCOPES);
    envFile('new-token-2');
    child.kill('SIGHUP');
    await waitFor('the answer with the new token', () => sim.outbound.after(0).some((o) => o.mention_id === first), 30_000);
    expect(out).not.toContain('old-token-1');
    expect(out).not.toContain('new-token-2');
    child.kill('SIGTERM');
    await waitFor('a clean stop', () => child!.exitCode !== null, 20_000);
    expect(child.exitCode).toBe(0);
  }, 120_000);
});
