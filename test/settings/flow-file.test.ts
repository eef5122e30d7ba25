import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFlowFile, locateFlowFile, PACKAGED_FLOW_FILE } from '../../src/settings/flow-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flows-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the flow file', () => {
  it('loads a file from disk and names a missing one', async () => {
    const path = join(dir, 'flows.yaml');
    await writeFile(path, 'greeting:\n  text: Hi\nfallback:\n  text: Sorry\n');
    await expect(loadFlowFile(path)).resolves.toMatchObject({ greeting: { text: 'Hi' } });
    await expect(loadFlowFile(join(dir, 'nope.yaml'))).rejects.toThrow(/nope\.yaml.*does not exist/s);
  });

  it('is the setting when given, else ./config/flows.yaml when it exists, else the packaged flows', async () => {
    expect(locateFlowFile('my.yaml', dir)).toEqual({ path: join(dir, 'my.yaml'), source: 'setting' });
    expect(locateFlowFile(undefined, dir)).toEqual({ path: PACKAGED_FLOW_FILE, source: 'package' });
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config/flows.yaml'), 'greeting: {}\n');
    expect(locateFlowFile(undefined, dir)).toEqual({ path: join(dir, 'config/flows.yaml'), source: 'working directory' });
  });

  it('ships default flows that load', async () => {
    await expect(loadFlowFile(PACKAGED_FLOW_FILE)).resolves.toHaveProperty('greeting');
  });
});
