import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { expectDemoGreetsAndStops, spawnDemo } from './demo-process.js';
import { REPO } from './harness.js';

let child: ChildProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe('the demo', () => {
  it('runs with no token: embedded simulator, a greeting for a customer, and a clean stop', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eb-demo-'));
    child = spawnDemo(['--import', 'tsx', 'src/cli.ts'], REPO, dataDir);
    await expectDemoGreetsAndStops(child);
  }, 90_000);
});
