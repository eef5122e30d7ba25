import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { defaultTestFile } from '../../src/cli/test-flows-command.js';
import { DEFAULT_FLOWS, REPO, fakeIo } from './cli-helpers.js';

const fixture = (name: string) => join(REPO, 'test/fixtures/flow-tests', name);
const run = async (...args: string[]) => {
  const io = fakeIo({}, REPO);
  const code = await runCli(['test-flows', ...args, '--flows', DEFAULT_FLOWS], io);
  return { code, out: io.out(), err: io.err() };
};

describe('engage-bridge test-flows', () => {
  it('exits 0 and says so when every threshold of the file is met', async () => {
    const r = await run(fixture('passing.test.yaml'));
    expect(r.err).toBe('');
    expect(r.out).toContain('3 first messages, 1 dialogues');
    expect(r.out).toMatch(/intent \(first messages\)\s+100\.0 %\s+\(3\/3\)/);
    expect(r.out).toContain('All thresholds met.');
    expect(r.code).toBe(0);
  });

  it('exits 1 below a threshold, naming the failure and the confusion', async () => {
    const r = await run(fixture('failing.test.yaml'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('"What are your opening hours?": intent opening_hours, expected refund; not handed over');
    expect(r.out).toContain('refund → opening_hours: 1');
    expect(r.out).toContain('Below threshold: intent: 0.000 < 1');
  });

  it('prints the same figures as JSON with --json', async () => {
    const r = await run(fixture('passing.test.yaml'), '--json');
    const json = JSON.parse(r.out);
    expect(json.intent).toEqual({ right: 3, of: 3, share: 1 });
    expect(json.dialogues).toEqual({ right: 1, of: 1, share: 1 });
    expect(json.below).toEqual([]);
  });

  it('exits 2 on an invalid test file, naming the path and line of each problem', async () => {
    const r = await run(fixture('invalid.test.yaml'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('problems in the flow test file');
    expect(r.err).toMatch(/thresholds\.intent \(line 1\)/);
    expect(r.err).toMatch(/messages\.0\.lang \(line 3\)/);
  });

  it('exits 2 when the test file does not exist', async () => {
    const r = await run(fixture('missing.test.yaml'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('missing.test.yaml');
  });

  it('finds the test file beside the flows by default', () => {
    expect(defaultTestFile('/x/config/flows.yaml')).toBe('/x/config/flows.test.yaml');
    expect(defaultTestFile('/x/my-flows.json')).toBe('/x/my-flows.test.json');
  });
});
