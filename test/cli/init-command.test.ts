import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { envTemplate } from '../../src/settings/env-template.js';
import { DEFAULT_FLOWS, fakeIo, tempDir } from './cli-helpers.js';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

describe('engage-bridge init', () => {
  it('writes the default flows and a .env template readable only by the owner, then prints the next steps', async () => {
    const io = fakeIo({}, dir.path);
    expect(await runCli(['init', 'site'], io)).toBe(0);
    const site = join(dir.path, 'site');
    expect(await readFile(join(site, 'config/flows.yaml'), 'utf8')).toBe(await readFile(DEFAULT_FLOWS, 'utf8'));
    expect(await readFile(join(site, '.env'), 'utf8')).toBe(envTemplate());
    expect((await stat(join(site, '.env'))).mode & 0o777).toBe(0o600);
    expect(io.out()).toContain('wrote site/config/flows.yaml');
    expect(io.out()).toContain('wrote site/.env');
    expect(io.out()).toContain('Next steps:');
    expect(io.out()).toContain('cd site');
  });

  it('never overwrites a file that exists, and says it kept it', async () => {
    const first = fakeIo({}, dir.path);
    expect(await runCli(['init'], first)).toBe(0);
    await writeFile(join(dir.path, '.env'), 'ENGAGE_ACCESS_TOKEN=mine\n');
    await writeFile(join(dir.path, 'config/flows.yaml'), 'my flows\n');
    const second = fakeIo({}, dir.path);
    expect(await runCli(['init'], second)).toBe(0);
    expect(await readFile(join(dir.path, '.env'), 'utf8')).toBe('ENGAGE_ACCESS_TOKEN=mine\n');
    expect(await readFile(join(dir.path, 'config/flows.yaml'), 'utf8')).toBe('my flows\n');
    expect(second.out()).toContain('kept config/flows.yaml (it exists; nothing overwritten)');
    expect(second.out()).toContain('kept .env (it exists; nothing overwritten)');
  });

  it('refuses a second directory argument with its usage and exit 2', async () => {
    const io = fakeIo({}, dir.path);
    expect(await runCli(['init', 'a', 'b'], io)).toBe(2);
    expect(io.err()).toContain('Usage: engage-bridge init');
  });
});
