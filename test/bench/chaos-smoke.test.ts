import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it, expect } from 'vitest';
import { killAllChildren } from '../../bench/lib/child-process.js';
import { runChaos } from '../../bench/lib/chaos-campaign.js';
import { CHAOS_SMOKE } from '../../bench/chaos.js';

/**
 * Where a campaign's dump goes: beside the test run's temporary directory, not in it, so a failing campaign outlives
 * the run's clean-up (test/support/temp-root.ts removes that directory); a passing one removes its own.
 */
function dumpDirFor(prefix: string): Promise<string> {
  const runRoot = process.env.ENGAGE_BRIDGE_TEST_TMPDIR;
  return mkdtemp(join(runRoot ? dirname(runRoot) : tmpdir(), prefix));
}

describe('chaos campaign (smoke)', () => {
  afterEach(() => killAllChildren());

  it('loses nothing, doubles nothing and leaks no secret across faults and two kills -9', async () => {
    // Alone a campaign's worst wait is 11-20 s (two restarts, a contact's retry delay growing 5, 10 s...); beside the
    // rest of the suite on two cores it can pass the 20 s of quiet, so the campaign waits up to 60 s before it calls a
    // message lost (a run with nothing missing stops after 3 s of quiet). A failing run keeps its dump, named below.
    const dumpDir = await dumpDirFor('chaos-smoke-');
    const report = await runChaos({ ...CHAOS_SMOKE, settleMs: 60_000, dumpDir });
    const kept = `(campaign kept in ${dumpDir}: bench/judge-dump.ts reads it)`;
    expect(report.messages).toBe(20);
    expect(report.kills).toBe(2);
    expect(report.answered + report.escalated, kept).toBe(20);
    expect(report, kept).toMatchObject({ lost: 0, doubled: 0, talk_over: 0, secrets_in_logs: 0 });
    expect(report.details.bridge_log_lines).toBeGreaterThan(0);
    await rm(dumpDir, { recursive: true, force: true });
  }, 180_000);

  it('loses nothing and doubles nothing when the active one of two instances on PostgreSQL is killed -9', async () => {
    // A contact whose runs failed during the takeover is retried after a growing delay (5, 10, 20 s…): on a loaded
    // machine the campaign must wait longer than 20 s of quiet before it may call a message lost.
    // A failing run keeps its dump (both bridges' output and logs, the driver's actions), named below.
    const dumpDir = await dumpDirFor('chaos-failover-smoke-');
    const report = await runChaos({ ...CHAOS_SMOKE, kills: 1, failover: { leaseTtlMs: 2000 }, settleMs: 60_000, dumpDir });
    const kept = `(campaign kept in ${dumpDir}: bench/judge-dump.ts reads it)`;
    expect(report.kills).toBe(1);
    expect(report.answered + report.escalated, kept).toBe(20);
    expect(report, kept).toMatchObject({ lost: 0, doubled: 0, talk_over: 0, secrets_in_logs: 0 });
    expect(report.failover?.takeovers, kept).toBe(1);
    expect(report.failover?.takeover_ms.max).toBeGreaterThan(0);
    await rm(dumpDir, { recursive: true, force: true });
  }, 240_000);
});
