import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, V, type TestSim } from './sim-helpers.js';

// One block per rule of engage-api.md the simulator enforces; each names the line it enforces and shows
// a refused input (400 invalid_parameter, nothing changed) next to an accepted one.
let s: TestSim;
beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.close());

const refusedAsInvalid = (r: { status: number; body: any }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe('invalid_parameter');
  expect(typeof r.body.error_description).toBe('string');
};

describe('mention update: "Supported updates include tags, status, assignment (with an optional comment), notes, sentiment and hiding a mention on the service"', () => {
  it('refuses priority (a mention field, not listed as updatable) with invalid_parameter and changes nothing', async () => {
    const m = await s.inbound('whatsapp', 'prio1', 'hello');
    const url = `/1001/inbox/mention/2001/${m['id']}`;
    const r = await s.api('POST', url, { version: V, updates: { priority: 'high' } });
    refusedAsInvalid(r);
    expect(r.body.error_description).toContain("'priority'");
    const mixed = await s.api('POST', url, { version: V, updates: { status: 'pending', priority: 'critical' } });
    refusedAsInvalid(mixed);
    const after = (await s.api('GET', url, { version: V })).body.response;
    expect(after).toMatchObject({ status: 'new', priority: 'low' });
  });

  it('accepts every listed key: tags, status, assignment with comment, notes, sentiment, and hiding through options', async () => {
    const m = await s.inbound('whatsapp', 'prio2', 'hello');
    const url = `/1001/inbox/mention/2001/${m['id']}`;
    const r = await s.api('POST', url, {
      version: V,
      updates: {
        tags: ['vip'],
        status: 'pending',
        assignment: { user_ids: ['u2'], comment: 'yours' },
        actions: [{ type: 'note', extra: 'called back' }],
        message: { sentiment: 'negative' },
      },
      options: { hide_on_service: true },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.response).toMatchObject({ tags: ['vip'], status: 'pending', message: { sentiment: 'negative' }, priority: 'low' });
  });
});
