import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../..');
const MB = 1024 * 1024;

// In a child process: the flag is process-wide, and the test runner's own heap must not change.
async function newSpaceAfterAllocating(setUp: string, nodeArgs: readonly string[] = []): Promise<{ limited: boolean; newSpace: number }> {
  const code = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { limitYoungGeneration } from './src/cli/young-generation.ts';
    const limited = ${setUp};
    const keep = [];
    for (let i = 0; i < 200000; i++) {
      const o = JSON.parse('{"a":[1,2,3],"b":"' + 'x'.repeat(200) + '","c":' + i + '}');
      if (i % 10 === 0) keep.push(o);
    }
    const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    console.log(JSON.stringify({ limited, newSpace, kept: keep.length }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: REPO,
  });
  return JSON.parse(stdout) as { limited: boolean; newSpace: number };
}

describe("the service's young generation", () => {
  it('stays at its initial size under brisk allocation once limited, where it would grow to tens of MB', async () => {
    const free = await newSpaceAfterAllocating('false');
    const limited = await newSpaceAfterAllocating('limitYoungGeneration([], undefined)');
    expect(free.newSpace).toBeGreaterThan(8 * MB);
    expect(limited.limited).toBe(true);
    expect(limited.newSpace).toBeLessThanOrEqual(4 * MB);
  });

  it("is left alone when the operator chose a semi-space size, in node's arguments or NODE_OPTIONS", async () => {
    const { limitYoungGeneration } = await import('../../src/cli/young-generation.js');
    expect(limitYoungGeneration(['--max-semi-space-size=8'], undefined)).toBe(false);
    expect(limitYoungGeneration([], '--max-old-space-size=200 --semi-space-growth-factor=2')).toBe(false);
    const chosen = await newSpaceAfterAllocating('limitYoungGeneration(process.execArgv, undefined)', ['--max-semi-space-size=8']);
    expect(chosen.limited).toBe(false);
    expect(chosen.newSpace).toBeGreaterThan(4 * MB);
  });
});
