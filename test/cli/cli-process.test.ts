import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO, waitFor } from './cli-helpers.js';

interface Run {
  child: ChildProcess;
  out(): string;
  err(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(command: string, args: readonly string[]): Run {
  // NODE_ENV and VITEST are vitest's, not the CLI's: the child runs as a user would run it.
  const { NODE_ENV: _n, VITEST: _v, ...env } = process.env;
  // Its own process group, so that stop() also reaches what npx starts beneath it.
  const child = spawn(command, [...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => (out += String(c)));
  child.stderr?.on('data', (c) => (err += String(c)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, out: () => out, err: () => err, exited };
}

/** Kills the group we started if anything of it still runs (finally blocks): never leaves a process behind. */
function stop(r: Run): void {
  if (r.child.pid === undefined) return;
  try {
    process.kill(-r.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe('the engage-bridge executable', () => {
  it('prints its usage and exits 0 on --help', async () => {
    const r = run('npx', ['tsx', 'src/cli.ts', '--help']);
    try {
      const { code } = await r.exited;
      expect(code).toBe(0);
      expect(r.out()).toContain('Usage: engage-bridge <command> [options]');
    } finally {
      stop(r);
    }
  }, 60_000);

  it('runs the simulator on a free port, prints its URL, serves it, and stops on SIGTERM', async () => {
    // node itself with tsx loaded, so the signal reaches the CLI without a wrapper process in between.
    const r = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'simulator', '--port', '0']);
    try {
      await waitFor('the simulator URL', () => /listening on http:\/\/127\.0\.0\.1:\d+/.test(r.out()), 30_000);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(r.out())?.[1] as string;
      const res = await fetch(`${url}/1001/settings/topics`, { headers: { authorization: 'Bearer sim-token' } });
      expect(res.status).toBe(200);
      r.child.kill('SIGTERM');
      const { code } = await r.exited;
      expect(code).toBe(0);
      await expect(fetch(`${url}/_sim/outbound`)).rejects.toThrow();
    } finally {
      stop(r);
    }
  }, 60_000);
});
