import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, waitFor } from './harness.js';

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe('the demo', () => {
  it('runs with no token: embedded simulator, a greeting for a customer, and a clean stop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'eb-demo-'));
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
      cwd: REPO,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BRIDGE_DATA_DIR: dataDir,
        BRIDGE_HTTP_HOST: '127.0.0.1',
        BRIDGE_HTTP_PORT: '0',
        BRIDGE_POLL_INTERVAL_MS: '200',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.stderr!.on('data', (d) => (out += String(d)));
    const simUrl = await waitFor('the banner', () => /Engage API: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], 30_000);
    expect(out).toContain('demo');
    expect(out).toContain('chat --channel whatsapp');
    await fetch(`${simUrl}/_sim/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'web', author: { id: 'visitor-1', name: 'Ann' }, text: 'hello' }),
    });
    const outbound = await waitFor(
      'the greeting',
      async () => {
        const list = (await (await fetch(`${simUrl}/_sim/outbound?after=0`)).json()) as Array<{ message: string }>;
        return list.length > 0 ? list : undefined;
      },
      20_000,
    );
    expect(outbound[0]!.message).toContain('Ann');
    child.kill('SIGTERM');
    await waitFor('the demo to stop', () => child!.exitCode !== null, 20_000);
    expect(child.exitCode).toBe(0);
  }, 90_000);
});
