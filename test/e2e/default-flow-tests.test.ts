import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo, REPO } from '../cli/cli-helpers.js';

// CI runs the shipped conversation tests (config/flows.test.yaml, held out from training) on the default flows.
// The file's thresholds are the targets; these floors are a little below what the default flows reach (measured
// 2026-11-27, after issue 25's work on requests for a person and on dialogues: intent 0.929, person recall 0.971,
// precision 0.962, language 0.992, entities 1.0, dialogues 0.905), so a change that makes the bot understand customers
// worse fails here.
const FLOORS = { intent: 0.92, person_recall: 0.96, person_precision: 0.95, language: 0.98, entities: 0.97, dialogues: 0.88 };

describe('the default flows on their held-out conversation tests', () => {
  it('understand customers at least as well as measured, with no test sentence among the training examples', async () => {
    const io = fakeIo({}, REPO);
    await runCli(['test-flows', '--json'], io);
    const score = JSON.parse(io.out());
    expect(score.overlap).toEqual([]);
    const below = Object.entries(FLOORS).filter(([name, floor]) => score[name].share < floor);
    expect(below).toEqual([]);
  }, 120_000);
});

// The second held-out file (test/fixtures/flows.blind.yaml) was written blind: its author never saw the examples,
// the keywords or the first test file, so nobody tuned on it. Measured 2026-11-27 on the default flows (after issue
// 25's work on requests for a person): intent 0.891, person recall 1.0, precision 0.958, language 0.993, entities 1.0,
// dialogues 0.811. Its short everyday sentences ("thanks!", "hours?") may coincide with examples written
// independently, so overlap is reported, not refused.
const BLIND_FLOORS = { intent: 0.88, person_recall: 0.97, person_precision: 0.945, language: 0.98, entities: 0.95, dialogues: 0.78 };

describe('the default flows on the test file written blind', () => {
  it('understand its customers at least as well as measured', async () => {
    const io = fakeIo({}, REPO);
    await runCli(['test-flows', 'test/fixtures/flows.blind.yaml', '--json'], io);
    const score = JSON.parse(io.out());
    const below = Object.entries(BLIND_FLOORS).filter(([name, floor]) => score[name].share < floor);
    expect(below).toEqual([]);
  }, 120_000);
});
