import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulator, type RunningSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/cli-io.js';
import { REPO, waitFor } from './harness.js';
import { testTempDir } from '../support/temp-dir.js';

const children: ChildProcess[] = [];
let server: RunningSimulator | undefined;
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await server?.close();
  server = undefined;
});

function bridgeEnv(simUrl: string, dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ENGAGE_BASE_URL: simUrl,
    ENGAGE_ACCESS_TOKEN: 'sim-token',
    ENGAGE_ACCOUNT_ID: '1001',
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_HTTP_HOST: '127.0.0.1',
    BRIDGE_HTTP_PORT: '0',
    BRIDGE_POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'warn',
  };
}

/** The bridge as its own process (node + tsx loader in one process, so SIGKILL really kills it). */
function spawnBridge(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  child.stdout!.on('data', (d) => (text += String(d)));
  child.stderr!.on('data', (d) => (text += String(d)));
  return { child, output: () => text };
}

function io(env: NodeJS.ProcessEnv): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd: REPO, stopSignal: new Promise(() => {}) };
}

async function simulator(): Promise<SimulatorHandle['sim']> {
  const handle = createSimulator();
  server = await handle.listen({ host: '127.0.0.1', port: 0 });
  return handle.sim;
}

describe('crash safety', () => {
  it('loses and doubles no reply when the bridge is killed with SIGKILL in the middle of a burst', async () => {
    const sim = await simulator();
    const dataDir = testTempDir('eb-kill-');
    const env = bridgeEnv(server!.url, dataDir);
    const first = spawnBridge(env);
    await waitFor('the first bridge to poll', () => sim.requests.after(0).some((r) => r.path.endsWith('/inbox/mentions')), 20_000);
    const customers = Array.from({ length: 25 }, (_, i) => `3249000${String(i).padStart(4, '0')}`);
    const inbound: string[] = [];
    const post = async (id: string, text: string) => {
      const res = await fetch(`${server!.url}/_sim/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'whatsapp', author: { id, name: 'Kim' }, text }),
      });
      inbound.push(((await res.json()) as { id: string }).id);
    };
    for (const id of customers) await post(id, 'hello');
    await waitFor('some replies before the kill', () => sim.outbound.after(0).length >= 3, 20_000);
    first.child.kill('SIGKILL');
    await waitFor('the first bridge to die', () => first.child.exitCode !== null || first.child.signalCode !== null);
    for (const id of customers) await post(id, 'what are your opening hours?');
    const second = spawnBridge(env);
    const answered = (mentionId: string) => sim.outbound.after(0).some((o) => o.mention_id === mentionId && o.author === 'bot');
    try {
      await waitFor('every message answered after the restart', () => inbound.every(answered), 40_000);
    } catch (err) {
      const missing = inbound.filter((m) => !answered(m));
      throw new Error(
        `${(err as Error).message}: ${missing.length} unanswered (${missing.slice(0, 5).join(', ')}); bridge said:\n${first.output().slice(-1500)}\n---\n${second.output().slice(-3000)}`,
      );
    }
    const seen = new Map<string, number>();
    for (const o of sim.outbound.after(0)) {
      const k = `${o.mention_id}|${o.message}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    const doubled = [...seen.entries()].filter(([, n]) => n > 1);
    expect(doubled).toEqual([]);
    expect(second.output()).not.toContain('sim-token');
    second.child.kill('SIGTERM');
    await waitFor('a clean stop', () => second.child.exitCode !== null, 20_000);
    expect(second.child.exitCode).toBe(0);
  }, 90_000);

  it('refuses to start on a store file that does not parse, names it, and leaves it untouched', async () => {
    await simulator();
    const dataDir = testTempDir('eb-corrupt-');
    writeFileSync(join(dataDir, 'store.json'), '{"schemaVersion": 1, "conver');
    const cli = io(bridgeEnv(server!.url, dataDir));
    expect(await runCli(['start'], cli)).toBe(1);
    expect(cli.err.join('')).toContain('store.json');
    expect(readFileSync(join(dataDir, 'store.json'), 'utf8')).toBe('{"schemaVersion": 1, "conver');
  });

  it('refuses a second bridge on the same data directory', async () => {
    const sim = await simulator();
    const dataDir = testTempDir('eb-lock-');
    const env = bridgeEnv(server!.url, dataDir);
    spawnBridge(env);
    await waitFor('the first bridge to poll', () => sim.requests.after(0).some((r) => r.path.endsWith('/inbox/mentions')), 20_000);
    const cli = io(env);
    expect(await runCli(['start'], cli)).toBe(1);
    expect(cli.err.join('')).toMatch(/already|lock|in use/i);
  });
});
