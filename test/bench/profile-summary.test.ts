import { describe, expect, it } from 'vitest';
import { fileOf, summarize, type CpuProfile } from '../../bench/profile-summary.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

// root → work (dist/bridge/a.js) → parse (zod) ; root → (idle)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
    { id: 2, callFrame: frame('work', 'file:///repo/dist/bridge/a.js'), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///repo/node_modules/zod/v4/core/schemas.js') },
    { id: 4, callFrame: frame('(idle)', '') },
  ],
  samples: [2, 3, 3, 4],
  timeDeltas: [1000, 2000, 3000, 4000],
  startTime: 0,
  endTime: 10_000,
};

describe('the CPU profile summary', () => {
  it('names files by package or by their place under src, dist or bench', () => {
    expect(fileOf('file:///x/node_modules/@nlpjs/core/src/a.js')).toBe('npm:@nlpjs/core');
    expect(fileOf('file:///x/node_modules/zod/v4/core/schemas.js')).toBe('npm:zod');
    expect(fileOf('file:///repo/dist/storage/store-core.js')).toBe('dist/storage/store-core.js');
    expect(fileOf('')).toBe('(native)');
  });

  it('sums self and inclusive time per function, leaves idle out of the busy time, and finds the callers of a frame', () => {
    const s = summarize(profile, 10, /^parse /);
    expect(s.sampled_ms).toBe(10);
    expect(s.busy_ms).toBe(6);
    expect(s.self_by_function[0]).toMatchObject({ name: 'parse npm:zod:1', ms: 5 });
    expect(s.inclusive_by_function.find((r) => r.name === 'work dist/bridge/a.js:1')).toMatchObject({ ms: 6, share: 1 });
    expect(s.self_by_file.find((r) => r.name === 'npm:zod')).toMatchObject({ ms: 5 });
    expect(s.callers).toEqual([{ name: 'work dist/bridge/a.js:1', ms: 5, share: 0.833 }]);
  });
});
