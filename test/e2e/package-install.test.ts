import { type ChildProcess, execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnv, expectDemoGreetsAndStops, spawnDemo } from './demo-process.js';
import { REPO } from './harness.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let root: string;
let cli: string;
let child: ChildProcess | undefined;

// What a user gets from `npm install engage-bridge`: the packed tarball (built by prepack), installed
// in an empty directory, run with plain Node from yet another empty directory. No tsx, no repository.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'eb-pack-'));
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', root], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed!.files.map((f) => f.path);
  expect(files).toContain('dist/cli.js');
  expect(files).toContain('config/flows.yaml');
  expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
  const app = join(root, 'app');
  await mkdir(app);
  await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', join(root, packed!.filename)], {
    cwd: app,
    maxBuffer: 16 * 1024 * 1024,
  });
  cli = join(app, 'node_modules/engage-bridge/dist/cli.js');
  await mkdir(join(root, 'elsewhere'));
}, 300_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the installed package, run from an empty directory', () => {
  it('has no TypeScript runner among what it installs', async () => {
    const { stdout } = await run(npm, ['ls', '--all', '--json'], { cwd: join(root, 'app'), maxBuffer: 16 * 1024 * 1024 });
    expect(stdout).not.toContain('"tsx"');
    expect(stdout).not.toContain('"typescript"');
  });

  it('prints its usage on --help', async () => {
    const { stdout } = await run(process.execPath, [cli, '--help'], { cwd: join(root, 'elsewhere') });
    expect(stdout).toMatch(/^Usage: engage-bridge <command>/);
    expect(stdout).toContain('  init ');
  });

  it('passes doctor --offline with the flows shipped in the package', async () => {
    const dir = join(root, 'elsewhere');
    const env = demoEnv(join(dir, 'doctor-data'));
    const { stdout } = await run(process.execPath, [cli, 'doctor', '--offline'], { cwd: dir, env });
    expect(stdout).toMatch(/flow file is valid .*node_modules\/engage-bridge\/config\/flows\.yaml \(from the package\)/);
    expect(stdout).toContain('All 4 checks passed.');
  });

  it('runs the demo and answers a customer', async () => {
    const dir = join(root, 'elsewhere');
    child = spawnDemo([cli], dir, join(dir, 'demo-data'));
    await expectDemoGreetsAndStops(child);
  }, 90_000);
});
