import { describe, it, expect } from 'vitest';
import { percentile, summarize } from '../../bench/lib/percentiles.js';
import { endpointName, callsPerAnswer } from '../../bench/lib/endpoint-name.js';
import { maxInWindow } from '../../bench/lib/write-rate.js';
import { budgetCheck } from '../../bench/lib/budget-check.js';
import type { RequestEntry } from '../../bench/lib/sim-client.js';

const entry = (seq: number, method: string, path: string, date = 0, status = 200): RequestEntry => ({
  seq,
  method,
  path,
  params: {},
  status,
  duration_ms: 1,
  date,
  at_ms: date * 1000,
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
  });

  it('is null without values', () => {
    expect(summarize([])).toEqual({ p50: null, p95: null, p99: null });
  });
});

describe('endpointName', () => {
  it('groups calls by operation, whatever the ids', () => {
    expect(endpointName('GET', '/1001/inbox/handover/whatsapp/32470000001')).toBe('GET inbox/handover/{service}/{id}');
    expect(endpointName('POST', '/1001/inbox/mention/2001/9001')).toBe('POST inbox/mention/{topic}/{id}');
    expect(endpointName('GET', '/1001/inbox/mentions')).toBe('GET inbox/mentions');
  });

  it('divides calls by answered messages and leaves out control calls', () => {
    const calls = [
      entry(1, 'GET', '/1001/inbox/mentions'),
      entry(2, 'POST', '/1001/publisher/add'),
      entry(3, 'POST', '/1001/publisher/add'),
      entry(4, 'GET', '/_sim/outbound'),
    ];
    expect(callsPerAnswer(calls, 2)).toEqual({ total: 1.5, byEndpoint: { 'GET inbox/mentions': 0.5, 'POST publisher/add': 1 } });
    expect(callsPerAnswer(calls, 0).total).toBeNull();
  });
});

describe('maxInWindow', () => {
  it('finds the busiest window', () => {
    expect(maxInWindow([0, 100, 200, 1500, 1600, 1700, 1800], 1000)).toBe(4);
    expect(maxInWindow([], 1000)).toBe(0);
  });
});

describe('budgetCheck', () => {
  it('flags more calls in ten seconds than the bucket allows', () => {
    const burst = Array.from({ length: 200 }, (_, i) => entry(i + 1, 'GET', '/1001/inbox/mentions', 1000));
    expect(budgetCheck(burst, 3600).within_budget).toBe(false);
    const steady = Array.from({ length: 20 }, (_, i) => entry(i + 1, 'GET', '/1001/inbox/mentions', 1000 + i));
    expect(budgetCheck(steady, 3600)).toMatchObject({ within_budget: true, calls: 20 });
  });
});
