import { afterEach, describe, it, expect } from 'vitest';
import { killAllChildren } from '../../bench/lib/child-process.js';
import { runScenario } from '../../bench/lib/run-scenario.js';
import type { ScenarioSpec } from '../../bench/lib/scenario-types.js';

// A tiny scenario over real processes: proves the harness works end to end. Counts only, never timings.
const spec: ScenarioSpec = {
  name: 'smoke',
  ingestion: 'webhook',
  apiLatencyMs: 0,
  pollIntervalMs: 1000,
  contacts: 3,
  rounds: 2,
  burst: true,
  pacedPerSecond: 10,
  escalations: 1,
  storedConversations: 20,
  rateLimitPerHour: 0,
  limit: true,
  concurrency: 4,
  stallMs: 15_000,
  phaseDeadlineMs: 60_000,
};

describe('bench harness (smoke)', () => {
  afterEach(() => killAllChildren());

  it('answers every message of a small webhook scenario and fills every figure of the row', async () => {
    const row = await runScenario(spec, 0);
    expect(row.messages).toBe(12);
    expect(row.details.unanswered).toBe(0);
    expect(row.details.escalation).toMatchObject({ contacts: 1, escalated: 1 });
    expect(row.details.limit).toMatchObject({ calls: 6, failed: 0 });
    // Each new contact's owner check, facts and claim, then its replies: every call went through.
    expect(row.details.flow_limit).toMatchObject({ calls: 6, apiCalls: 3 * 3 + 6, failed: 0 });
    expect(row.stored_conversations).toBe(20);
    for (const key of [
      'throughput_per_s',
      'limit_per_s',
      'ratio',
      'flow_limit_per_s',
      'flow_ratio',
      'burst_cpu_ms_per_answer',
      'api_calls_per_answer',
      'api_calls_per_escalation',
      'peak_rss_mb',
      'startup_ms',
      'fsyncs_per_s',
      'disk_bytes_per_answer',
    ] as const) {
      expect(row[key], key).toBeTypeOf('number');
    }
    expect(row.latency_ms.p99).toBeTypeOf('number');
    expect(row.durability).toBe('fsync');
    expect(row.fsyncs_per_s).toBeGreaterThan(0);
    expect(row.disk_bytes_per_answer).toBeGreaterThan(0);
  }, 120_000);
});
