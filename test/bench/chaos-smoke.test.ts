import { afterEach, describe, it, expect } from 'vitest';
import { killAllChildren } from '../../bench/lib/child-process.js';
import { runChaos } from '../../bench/lib/chaos-campaign.js';
import { CHAOS_SMOKE } from '../../bench/chaos.js';

describe('chaos campaign (smoke)', () => {
  afterEach(() => killAllChildren());

  it('loses nothing, doubles nothing and leaks no secret across faults and two kills -9', async () => {
    const report = await runChaos(CHAOS_SMOKE);
    expect(report.messages).toBe(20);
    expect(report.kills).toBe(2);
    expect(report.answered + report.escalated).toBe(20);
    expect(report).toMatchObject({ lost: 0, doubled: 0, talk_over: 0, secrets_in_logs: 0 });
    expect(report.details.bridge_log_lines).toBeGreaterThan(0);
  }, 120_000);

  it('loses nothing and doubles nothing when the active one of two instances on PostgreSQL is killed -9', async () => {
    // A contact whose runs failed during the takeover is retried after a growing delay (5, 10, 20 s…): on a loaded
    // machine the campaign must wait longer than 20 s of quiet before it may call a message lost.
    const report = await runChaos({ ...CHAOS_SMOKE, kills: 1, failover: { leaseTtlMs: 2000 }, settleMs: 60_000 });
    expect(report.kills).toBe(1);
    expect(report.answered + report.escalated).toBe(20);
    expect(report).toMatchObject({ lost: 0, doubled: 0, talk_over: 0, secrets_in_logs: 0 });
    expect(report.failover?.takeovers).toBe(1);
    expect(report.failover?.takeover_ms.max).toBeGreaterThan(0);
  }, 240_000);
});
