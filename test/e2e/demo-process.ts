import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { waitFor } from './harness.js';

/** Settings for a demo process that listens on loopback only and polls fast enough for a test. */
export function demoEnv(dataDir: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_HTTP_HOST: '127.0.0.1',
    BRIDGE_HTTP_PORT: '0',
    BRIDGE_POLL_INTERVAL_MS: '200',
    LOG_LEVEL: 'warn',
  };
}

/** Starts `node ...args start` as the demo (no token) in `cwd`. */
export function spawnDemo(args: string[], cwd: string, dataDir: string): ChildProcess {
  return spawn(process.execPath, [...args, 'start'], { cwd, env: demoEnv(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Drives a started demo: waits for its banner, writes as a web visitor through the simulator's
 * control API, waits for the bot's greeting, then stops it with SIGTERM and expects exit code 0.
 */
export async function expectDemoGreetsAndStops(child: ChildProcess): Promise<void> {
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
  await waitFor('the demo to stop', () => child.exitCode !== null, 20_000);
  expect(child.exitCode).toBe(0);
}
