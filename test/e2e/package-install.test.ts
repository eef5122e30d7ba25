import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEnv, expectDemoGreetsAndStops, spawnDemo } from './demo-process.js';
import { REPO, waitFor } from './harness.js';

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
  expect(files).toContain('docs/simulator.md');
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
    expect(stdout).toContain('All 5 checks passed.');
  });

  it('prints a banner whose commands work where the package is installed, and ships the document it names', async () => {
    const app = join(root, 'app');
    const dataDir = join(root, 'banner-data');
    const demo = spawnDemo([cli], app, dataDir);
    child = demo;
    let out = '';
    demo.stdout!.on('data', (d) => (out += String(d)));
    demo.stderr!.on('data', (d) => (out += String(d)));
    await waitFor('the banner', () => out.includes('Stop with Ctrl-C'), 30_000);
    expect(out).not.toContain('npm run cli');
    const chatLine = /^ {2}(ENGAGE_BASE_URL=\S+ npx engage-bridge chat .*)$/m.exec(out)?.[1];
    const cmdLine = /^ {2}(npx engage-bridge cmd "status")/m.exec(out)?.[1];
    const doc = /\(see (\/\S+simulator\.md)\)/.exec(out)?.[1];
    expect(chatLine).toBeDefined();
    expect(cmdLine).toBeDefined();
    expect(doc).toBeDefined();
    await access(doc!);
    const env = { ...demoEnv(dataDir), PATH: `${dirname(process.execPath)}:${process.env.PATH}` };
    const status = await run('sh', ['-c', cmdLine!], { cwd: app, env });
    expect(status.stdout).toMatch(/conversations|owner|ingestion/i);
    const chat = spawn('sh', ['-c', chatLine!], { cwd: app, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let chatOut = '';
    chat.stdout!.on('data', (d) => (chatOut += String(d)));
    chat.stderr!.on('data', (d) => (chatOut += String(d)));
    chat.stdin!.write('hello\n');
    await waitFor('the bot to answer in the chat', () => /Support desk assistant/.test(chatOut), 30_000);
    chat.stdin!.end('/quit\n');
    await waitFor('the chat to end', () => chat.exitCode !== null, 20_000);
    expect(chat.exitCode).toBe(0);
    demo.kill('SIGTERM');
    await waitFor('the demo to stop', () => demo.exitCode !== null, 20_000);
  }, 120_000);

  it('runs the demo and answers a customer', async () => {
    const dir = join(root, 'elsewhere');
    child = spawnDemo([cli], dir, join(dir, 'demo-data'));
    await expectDemoGreetsAndStops(child);
  }, 90_000);
});
