import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: the bench spawns `src/cli.ts` from here whatever the caller's working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A child process whose output is kept line by line (the chaos campaign searches it for secrets). */
export interface ChildHandle {
  readonly pid: number;
  readonly lines: string[];
  readonly exited: Promise<number | null>;
  /** Resolves with the first output line matching `pattern`; rejects on exit or after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Sends the signal (if still running) and waits for the exit. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();

/** Kills every child still running (tests call it in `afterEach`, so a failure never leaves one behind). */
export function killAllChildren(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  live.clear();
}

/** The variables a spawned bridge or simulator inherits: none of ours, so only what the bench sets applies. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ENGAGE_|BRIDGE_|SLACK_|LOG_LEVEL$|NODE_ENV$|VITEST)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

let builtCli = false;
/** Node flags for the bridge processes alone (`--cpu-prof DIR` of `bench/run.ts`, or `BENCH_BRIDGE_NODE_ARGS`). */
let bridgeArgs: readonly string[] = (process.env.BENCH_BRIDGE_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');

/** Node flags every bridge the bench starts gets (e.g. `--cpu-prof --cpu-prof-dir=DIR`; NODE_OPTIONS refuses those). */
export function setBridgeNodeArgs(args: readonly string[]): void {
  bridgeArgs = args;
}

export function bridgeNodeArgs(): readonly string[] {
  return bridgeArgs;
}

/** Runs the compiled `dist/cli.js` (as a deployment does, without tsx's compiler in memory) instead of the sources. */
export function useBuiltCli(on: boolean): void {
  builtCli = on;
}

/**
 * Runs `node --import tsx src/cli.ts ...args` (or `node dist/cli.js ...args`) directly, no npx wrapper, so `pid`
 * is the process itself.
 */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): ChildHandle {
  const entry = builtCli ? ['dist/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
  const child = spawn(process.execPath, [...nodeArgs, ...entry, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const onData = (stream: NodeJS.ReadableStream) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        for (const w of watchers) w(line);
      }
    });
    stream.on('end', () => {
      if (rest) lines.push(rest);
    });
  };
  onData(child.stdout!);
  onData(child.stderr!);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
    child.on('error', () => resolve(null));
  });
  return {
    pid: child.pid ?? -1,
    lines,
    exited,
    waitForLine(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        for (const line of lines) {
          const m = pattern.exec(line);
          if (m) return resolve(m);
        }
        const timer = setTimeout(
          () => done(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.slice(-20).join('\n')}`)),
          timeoutMs,
        );
        const watcher = (line: string) => {
          const m = pattern.exec(line);
          if (m) done(undefined, m);
        };
        const done = (err?: Error, m?: RegExpMatchArray) => {
          clearTimeout(timer);
          watchers.delete(watcher);
          if (err) reject(err);
          else resolve(m!);
        };
        watchers.add(watcher);
        void exited.then(() => done(new Error(`process exited before printing ${pattern}:\n${lines.slice(-20).join('\n')}`)));
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A graceful stop that hangs must not hang the bench: escalate to SIGKILL.
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
