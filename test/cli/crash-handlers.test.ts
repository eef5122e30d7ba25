import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from './cli-helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const LONG = 'xoxb-LEAKY-123456';
const SHORT = 'k9';

/** Runs a small program with the bridge's own crash wiring (processIo + crashReporter) in a child process. */
function runWithCrashWiring(fault: string): Promise<{ code: number | null; output: string }> {
  dir = mkdtempSync(join(tmpdir(), 'eb-crash-'));
  const script = join(dir, 'crash.ts');
  writeFileSync(
    script,
    [
      `import { processIo } from ${JSON.stringify(join(REPO, 'src/cli/cli-io.ts'))};`,
      `import { createLogger, crashReporter } from ${JSON.stringify(join(REPO, 'src/log.ts'))};`,
      'const io = processIo();',
      `const log = createLogger({ level: 'info', pretty: false, secrets: [${JSON.stringify(LONG)}, ${JSON.stringify(SHORT)}] });`,
      'io.onCrash?.(crashReporter(log, io.exit ?? ((c) => process.exit(c))));',
      fault,
      // Keeps the process alive until the crash handler ends it.
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  );
  const { NODE_ENV: _n, VITEST: _v, ...env } = process.env;
  const child = spawn(join(REPO, 'node_modules/.bin/tsx'), [script], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += String(c)));
  child.stderr.on('data', (c) => (output += String(c)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('the last line of defence', () => {
  it('logs an unhandled rejection with its secrets scrubbed and exits non-zero', async () => {
    const r = await runWithCrashWiring(`Promise.reject(new Error('call failed with ${LONG} and pin ${SHORT}'));`);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.output).toContain('unexpected failure');
    expect(r.output).toContain('unhandledRejection');
    expect(r.output).not.toContain(LONG);
    expect(r.output).not.toContain(`pin ${SHORT}`);
  });

  it('logs an uncaught exception with its secrets scrubbed and exits non-zero', async () => {
    const r = await runWithCrashWiring(`setTimeout(() => { throw new Error('boom ${LONG}'); }, 0);`);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.output).toContain('uncaughtException');
    expect(r.output).not.toContain(LONG);
  });
});
