import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/simulator/faults.js';
import { startSim, V, type TestSim } from './sim-helpers.js';

let s: TestSim;
let now = 1_700_000_000_000;
beforeAll(async () => {
  s = await startSim({ clock: () => now, random: seededRandom(7) });
  await s.inbound('whatsapp', '3247020', 'hi');
});
afterAll(() => s.close());
afterEach(async () => {
  await s.control('POST', '/_sim/faults', {});
  await s.control('POST', '/_sim/realism', { timestamp_ties: false, indexing_delay_ms: 0, extra_fields: false });
});

/** A raw request that reports how it ended, so socket resets and held requests can be observed. */
function rawGet(url: string, abortAfterMs?: number): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { headers: { authorization: 'Bearer sim-token' } }, (res: IncomingMessage) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: e.message }));
    if (abortAfterMs !== undefined) req.setTimeout(abortAfterMs, () => req.destroy(new Error('client timeout')));
    req.end();
  });
}

describe('faults', () => {
  it('answers 503 server_error with probability 1', async () => {
    await s.control('POST', '/_sim/faults', { server_error: 1 });
    const r = await s.api('GET', '/1001/settings/topics');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: 'server_error', error_description: expect.any(String) });
  });

  it('answers 400 rate_limit_reached with reset and Retry-After headers', async () => {
    await s.control('POST', '/_sim/faults', { rate_limit: 1 });
    const r = await s.api('GET', '/1001/settings/topics');
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('rate_limit_reached');
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });

  it('logs each request with the real time it was answered and the code of a refusal', async () => {
    await s.control('POST', '/_sim/faults', { rate_limit: 1 });
    await s.api('GET', '/1001/settings/topics');
    await s.control('POST', '/_sim/faults', { rate_limit: 0 });
    await s.api('GET', '/1001/settings/topics');
    await s.api('GET', '/1001/inbox/mention/2001/999999');
    const log = (await s.control('GET', '/_sim/requests')).body as Array<{ at_ms: number; error?: string; status: number }>;
    expect(log.slice(-3).map((r) => [r.status, r.error])).toEqual([
      [400, 'rate_limit_reached'],
      [200, undefined],
      [404, 'not_found'],
    ]);
    // The simulator's own real clock (a test's may be fixed), in ms.
    for (const r of log.slice(-3)) expect(Number.isInteger(r.at_ms)).toBe(true);
  });

  it('sends an invalid JSON body when malformed', async () => {
    await s.control('POST', '/_sim/faults', { malformed: 1 });
    const r = await s.api('GET', '/1001/settings/topics');
    expect(r.status).toBe(200);
    expect(r.body).toBeUndefined();
    expect(() => JSON.parse(r.text)).toThrow();
  });

  it('destroys the socket on reset', async () => {
    await s.control('POST', '/_sim/faults', { reset: 1 });
    const r = await rawGet(`${s.url}/1001/settings/topics`);
    expect(r.error).toBeDefined();
  });

  it('holds the request past the client timeout and keeps serving others', async () => {
    await s.control('POST', '/_sim/faults', { timeout: 1 });
    const r = await rawGet(`${s.url}/1001/settings/topics`, 200);
    expect(r.error).toBe('client timeout');
    await s.control('POST', '/_sim/faults', {});
    expect((await s.api('GET', '/1001/settings/topics')).status).toBe(200);
  });

  it('leaves the control API alone and validates fault settings', async () => {
    await s.control('POST', '/_sim/faults', { server_error: 1 });
    expect((await s.control('GET', '/_sim/faults')).status).toBe(200);
    expect((await s.control('POST', '/_sim/faults', { server_error: 2 })).status).toBe(400);
    expect((await s.control('POST', '/_sim/faults', { explode: 0.5 })).status).toBe(400);
  });

  it('delays API requests by latency_ms through the injected sleep', async () => {
    const slept: number[] = [];
    const own = await startSim({
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    try {
      await own.control('POST', '/_sim/faults', { latency_ms: 250 });
      expect((await own.api('GET', '/1001/settings/topics')).status).toBe(200);
      expect(slept).toEqual([250]);
    } finally {
      await own.close();
    }
  });

  it('rolls the same faults for the same seed', async () => {
    const run = async () => {
      await s.control('POST', '/_sim/faults', { server_error: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await s.api('GET', '/1001/settings/topics')).status);
      return statuses;
    };
    const a = await run();
    expect(a).toContain(503);
    expect(a).toContain(200);
    expect(await run()).toEqual(a);
  });

  it('logs faulted and normal requests with seq, status and duration', async () => {
    const before = (await s.control('GET', '/_sim/requests?after=0')).body.at(-1)?.seq ?? 0;
    await s.control('POST', '/_sim/faults', { server_error: 1 });
    await s.api('GET', '/1001/settings/topics', { limit: '5' });
    const log = (await s.control('GET', `/_sim/requests?after=${before}`)).body;
    expect(log).toEqual([
      expect.objectContaining({ seq: before + 1, method: 'GET', path: '/1001/settings/topics', status: 503, params: { limit: '5' } }),
    ]);
    expect(typeof log[0].duration_ms).toBe('number');
    expect((await s.control('GET', '/_sim/requests?after=abc')).status).toBe(400);
  });
});

describe('realism', () => {
  it('gives many mentions the same date.added with timestamp ties', async () => {
    await s.control('POST', '/_sim/realism', { timestamp_ties: 30 });
    const added = new Set<number>();
    for (let i = 0; i < 5; i++) {
      now += 1000;
      const m = await s.inbound('web', `tie${i}`, 'tie');
      added.add((m['date'] as { added: number }).added);
    }
    expect(added.size).toBe(1);
  });

  it('shows a late-indexed mention in the list only after its delay, but at once by id', async () => {
    await s.control('POST', '/_sim/realism', { indexing_delay_ms: 10_000 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await s.inbound('web', `late${i}`, 'late'))['id']));
    const visible = async () =>
      (await s.api('GET', '/1001/inbox/mentions', { version: V, limit: '100', filter: 'source:web' })).body.response.data
        .map((m: { id: string }) => m.id)
        .filter((id: string) => ids.includes(id));
    expect((await visible()).length).toBeLessThan(5);
    expect((await s.api('GET', `/1001/inbox/mention/2001/${ids[0]}`)).status).toBe(200);
    now += 10_000;
    expect((await visible()).length).toBe(5);
  });

  it('adds unknown fields to items when extra_fields is on', async () => {
    await s.control('POST', '/_sim/realism', { extra_fields: true });
    const m = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: V });
    expect(m.body.response).toHaveProperty('sim_unknown_field');
    expect(m.body.response.extra_fields).not.toEqual({});
    await s.control('POST', '/_sim/realism', { extra_fields: false });
    expect((await s.api('GET', '/1001/inbox/mention/2001/9001')).body.response).not.toHaveProperty('sim_unknown_field');
    expect((await s.control('POST', '/_sim/realism', { indexing_delay_ms: -1 })).status).toBe(400);
  });
});
