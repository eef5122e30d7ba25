import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureNlu } from '../../bench/lib/nlu-measure.js';
import { REPO_ROOT } from '../../bench/lib/child-process.js';

describe("the bench's measure of the understanding", () => {
  it('reads every first message of the test file and reports training and memory (counts only, never timings)', async () => {
    const figures = await measureNlu(join(REPO_ROOT, 'config/flows.yaml'), join(REPO_ROOT, 'test/fixtures/flow-tests/passing.test.yaml'));
    expect(figures.nlu_messages).toBe(3);
    expect(figures.nlu_ms_p99).not.toBeNull();
    expect(figures.nlu_train_ms).toBeGreaterThan(0);
    expect(Number.isFinite(figures.nlu_rss_growth_mb)).toBe(true);
  }, 60_000);
});
