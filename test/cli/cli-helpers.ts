import { join, resolve } from 'node:path';
import type { CliIo } from '../../src/cli/cli-io.js';
import { createSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/simulator/index.js';
import type { Simulator } from '../../src/simulator/simulator.js';

export const REPO = resolve(import.meta.dirname, '../..');
export const DEFAULT_FLOWS = join(REPO, 'config/flows.yaml');

/** A CliIo that records what a command prints; stop resolves its stop signal. */
export function fakeIo(env: Record<string, string>, cwd: string): CliIo & { out(): string; err(): string; stop(): void } {
  let out = '';
  let err = '';
  let stop: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((r) => {
    stop = r;
  });
  return {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    env,
    cwd,
    stopSignal,
    out: () => out,
    err: () => err,
    stop: () => stop('SIGTERM'),
  };
}

export interface TestSimulator {
  sim: Simulator;
  url: string;
  close(): Promise<void>;
  /** A control API call (`/_sim/...`); throws unless it succeeded. */
  control(path: string, body?: unknown): Promise<any>;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<TestSimulator> {
  const handle = createSimulator(opts);
  const running: RunningSimulator = await handle.listen({ host: '127.0.0.1', port: 0 });
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${running.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  return { sim: handle.sim, url: running.url, close: () => running.close(), control };
}

export { tempDir } from '../support/temp-dir.js';

/**
 * A port where nothing listens, for tests of an unreachable service: port 4 is privileged and unassigned (and,
 * unlike port 1, not on fetch's list of blocked ports), no test binds it
 * and no service here uses it, so a connection is refused at once (no bind-close-reuse race).
 */
export const REFUSED_PORT = 4;

export { waitFor } from '../support/wait-for.js';
