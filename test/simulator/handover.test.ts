import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type TestSim } from './sim-helpers.js';

let s: TestSim;
let now = 1_700_000_000_000;
beforeAll(async () => {
  s = await startSim({ clock: () => now });
  await s.inbound('whatsapp', '3247003', 'hi');
  await s.inbound('facebook', 'fb9', 'hi');
});
afterAll(() => s.close());

const path = '/1001/inbox/handover/whatsapp/3247003';

describe('handover', () => {
  it('reads agents with application_id null and date.updated null for a contact never handed over', async () => {
    const r = await s.api('GET', path);
    expect(r.body.response).toEqual({
      service: 'whatsapp',
      service_id: '3247003',
      owner: 'agents',
      application_id: null,
      date: { updated: null },
    });
  });

  it('gives the contact to the application on DELETE and to the agents on POST, idempotently', async () => {
    const del = await s.api('DELETE', path);
    expect(del.body.response).toMatchObject({ owner: 'application', application_id: 'bridge-app', date: { updated: 1_700_000_000 } });
    expect((await s.api('DELETE', path)).body.response.owner).toBe('application');
    now += 5000;
    const post = await s.api('POST', path);
    expect(post.body.response).toMatchObject({ owner: 'agents', date: { updated: 1_700_000_005 } });
    expect((await s.api('GET', path)).body.response.owner).toBe('agents');
  });

  it('keeps in the request log who held the contact at each answered handover call', async () => {
    const from = s.sim.requests.after(0).at(-1)?.seq ?? 0;
    await s.api('DELETE', path);
    await s.api('GET', path);
    await s.api('POST', path);
    const logged = s.sim.requests.after(from).map((r) => [r.method, r.owner]);
    expect(logged).toEqual([
      ['DELETE', 'application'],
      ['GET', 'application'],
      ['POST', 'agents'],
    ]);
  });

  it('answers 400 for an unsupported service and 404 for an unknown contact', async () => {
    const fb = await s.api('GET', '/1001/inbox/handover/facebook/fb9');
    expect(fb.status).toBe(400);
    expect(fb.body.error).toBe('invalid_parameter');
    const unknown = await s.api('GET', '/1001/inbox/handover/whatsapp/nobody');
    expect(unknown.status).toBe(404);
  });

  it('lets the service side change the owner through the control API', async () => {
    await s.api('DELETE', path);
    const c = await s.control('POST', '/_sim/handover', { channel: 'whatsapp', service_id: '3247003', owner: 'agents' });
    expect(c.status).toBe(200);
    expect((await s.api('GET', path)).body.response.owner).toBe('agents');
    expect((await s.control('POST', '/_sim/handover', { channel: 'facebook', service_id: 'fb9', owner: 'agents' })).status).toBe(400);
    expect((await s.control('POST', '/_sim/handover', { channel: 'whatsapp', service_id: '1', owner: 'bot' })).status).toBe(400);
  });
});
