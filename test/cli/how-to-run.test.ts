import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { howToRun, shippedDoc } from '../../src/cli/how-to-run.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('how the banner tells a user to run another command', () => {
  it('says `npm run cli --` inside the repository', () => {
    expect(howToRun('/anywhere', '/home/me/engage-bridge/')).toBe('npm run cli --');
  });

  it('says `npx engage-bridge` where the package is installed, and the executable path elsewhere', async () => {
    const app = await mkdtemp(join(tmpdir(), 'eb-howto-'));
    dirs.push(app);
    const root = join(app, 'node_modules', 'engage-bridge');
    await mkdir(join(app, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(app, 'node_modules', '.bin', 'engage-bridge'), '');
    expect(howToRun(app, root)).toBe('npx engage-bridge');
    expect(howToRun(tmpdir(), root)).toBe(join(root, 'dist', 'cli.js'));
    expect(shippedDoc('simulator.md', root)).toBe(join(root, 'docs', 'simulator.md'));
  });
});
