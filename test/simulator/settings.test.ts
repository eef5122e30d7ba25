import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, V, type TestSim } from './sim-helpers.js';

let s: TestSim;
beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.close());

const at = async (iso: string) => {
  const r = await s.control('POST', '/_sim/clock', { now: Date.parse(iso) / 1000 });
  expect(r.status).toBe(200);
};
const desk = async () => (await s.api('GET', '/1001/settings/businesshoursschedule/301', { version: V })).body.response;

describe('business hours', () => {
  it('computes is_active in Europe/Brussels, winter and summer time', async () => {
    await at('2024-01-08T07:59:00Z'); // Monday 08:59 in Brussels (UTC+1)
    expect((await desk()).is_active).toBe(false);
    await at('2024-01-08T08:00:00Z');
    expect((await desk()).is_active).toBe(true);
    await at('2024-01-08T15:59:00Z');
    expect((await desk()).is_active).toBe(true);
    await at('2024-01-08T16:00:00Z'); // 17:00 local: closed
    expect((await desk()).is_active).toBe(false);
    await at('2024-07-08T07:00:00Z'); // Monday 09:00 in summer (UTC+2)
    expect((await desk()).is_active).toBe(true);
    await at('2024-01-13T09:00:00Z'); // Saturday
    expect((await desk()).is_active).toBe(false);
  });

  it('counts the users of a schedule and shows businesshours_is_active on a user', async () => {
    await at('2024-01-08T09:00:00Z');
    expect((await desk()).users).toEqual({ total: 2, available: 2, busy: 0, unavailable: 0 });
    const u = await s.api('GET', '/1001/settings/user/u2', { version: V });
    expect(u.body.response).toMatchObject({
      id: 'u2',
      status: 'Available',
      businesshours_is_active: true,
      business_hours_schedule_id: '301',
      account_role: { id: 'r2', topics: [{ id: 2001, name: 'Support' }], permissions: expect.any(Array) },
    });
    expect(u.body.response).not.toHaveProperty('company');
    await at('2024-01-08T20:00:00Z');
    expect((await s.api('GET', '/1001/settings/user/u2')).body.response.businesshours_is_active).toBe(false);
  });

  it('supports several periods a day and 2400 as midnight', async () => {
    const created = await s.api('POST', '/1001/settings/businesshoursschedules', {
      version: V,
      business_hours_schedule: {
        name: 'Tokyo split',
        timezone: 'Asia/Tokyo',
        periods: [
          { dayofweek: 2, start: '0800', end: '1200' },
          { dayofweek: 2, start: '1300', end: '2400' },
        ],
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.response.id;
    const active = async () => (await s.api('GET', `/1001/settings/businesshoursschedule/${id}`)).body.response.is_active;
    await at('2024-01-09T14:59:00Z'); // Tuesday 23:59 in Tokyo
    expect(await active()).toBe(true);
    await at('2024-01-09T03:30:00Z'); // Tuesday 12:30: the lunch gap
    expect(await active()).toBe(false);
    await at('2024-01-09T15:00:00Z'); // Wednesday 00:00
    expect(await active()).toBe(false);
    await s.control('POST', '/_sim/clock', {});
  });

  it('validates schedules: name, time zone, periods and unknown keys', async () => {
    const post = (schedule: unknown) => s.api('POST', '/1001/settings/businesshoursschedules', { business_hours_schedule: schedule });
    const base = { name: 'x', timezone: 'Europe/Brussels', periods: [] };
    expect((await post({ ...base, timezone: 'Mars/Olympus' })).status).toBe(400);
    expect((await post({ ...base, periods: [{ dayofweek: 7, start: '0900', end: '1000' }] })).status).toBe(400);
    expect((await post({ ...base, periods: [{ dayofweek: 1, start: '1000', end: '0900' }] })).status).toBe(400);
    expect((await post({ ...base, periods: [{ dayofweek: 1, start: '9am', end: '1000' }] })).status).toBe(400);
    expect((await post({ ...base, owner: 'me' })).status).toBe(400);
    expect((await s.api('POST', '/1001/settings/businesshoursschedules', {})).status).toBe(400);
  });

  it('updates and deletes a schedule, unlinking its users', async () => {
    const c = await s.api('POST', '/1001/settings/businesshoursschedules', {
      business_hours_schedule: { name: 'Temp', timezone: 'UTC', periods: [] },
    });
    const url = `/1001/settings/businesshoursschedule/${c.body.response.id}`;
    expect((await s.api('POST', url, { updates: { name: 'Renamed' } })).body.response.name).toBe('Renamed');
    expect((await s.api('POST', url, { updates: { colour: 'red' } })).status).toBe(400);
    await s.api('POST', '/1001/settings/user/u2', { updates: { business_hours_schedule_id: c.body.response.id } });
    expect((await s.api('DELETE', url)).body.response).toBe(true);
    expect((await s.api('GET', '/1001/settings/user/u2')).body.response.business_hours_schedule_id).toBeNull();
    expect((await s.api('GET', url)).status).toBe(404);
    await s.api('POST', '/1001/settings/user/u2', { updates: { business_hours_schedule_id: '301' } });
  });

  it('pages the schedule list with limit 0..200', async () => {
    expect((await s.api('GET', '/1001/settings/businesshoursschedules', { limit: '201' })).status).toBe(400);
    const one = await s.api('GET', '/1001/settings/businesshoursschedules', { limit: '1' });
    expect(one.body.response.data).toHaveLength(1);
    const next = one.body.response.paging.next_url as string;
    expect(next.startsWith(s.url)).toBe(true);
    const second = await s.api('GET', next.slice(s.url.length));
    expect(second.body.response.data[0].id).not.toBe(one.body.response.data[0].id);
    expect(second.body.response.paging.previous_url).toContain('page_token=');
  });
});

describe('users', () => {
  it('updates only business_hours_schedule_id or account_role', async () => {
    expect((await s.api('POST', '/1001/settings/user/u2', { updates: { account_role: 'r1' } })).body.response.account_role.id).toBe('r1');
    expect((await s.api('POST', '/1001/settings/user/u2', { updates: { status: 'Busy' } })).status).toBe(400);
    expect((await s.api('POST', '/1001/settings/user/u2', { updates: { account_role: 'r99' } })).status).toBe(400);
    expect((await s.api('POST', '/1001/settings/user/u2', { updates: { business_hours_schedule_id: '999' } })).status).toBe(400);
    expect((await s.api('GET', '/1001/settings/user/nobody')).status).toBe(404);
  });
});

describe('profile groups and other settings', () => {
  it('creates a profile group and refuses a colour that is not #rrggbb', async () => {
    const ok = await s.api('POST', '/1001/settings/profilegroups', {
      profile_group: { name: 'Socials', color: '#AABBCC', profiles: [{ type: 'facebook', service_id: 'fb-1001' }] },
    });
    expect(ok.body.response).toMatchObject({ name: 'Socials', color: '#AABBCC' });
    const bad = await s.api('POST', '/1001/settings/profilegroups', { profile_group: { name: 'x', color: 'red', profiles: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('color');
    const list = await s.api('GET', '/1001/settings/profilegroups');
    expect(list.body.response.count).toBe(2);
  });

  it('adds tag status from 20180115', async () => {
    expect((await s.api('GET', '/1001/settings/tags', { version: '20180115' })).body.response.data[0]).toHaveProperty('status');
    expect((await s.api('GET', '/1001/settings/tags', { version: '20180114' })).body.response.data[0]).not.toHaveProperty('status');
  });

  it('answers /me/accounts with the account, honouring fields', async () => {
    const r = await s.api('GET', '/me/accounts', { fields: 'name' });
    expect(r.body.response.data).toEqual([{ id: '1001', name: 'Demo account' }]);
  });

  it('scores sentiment deterministically', async () => {
    const r = await s.api('GET', '/tools/sentiment', { string: 'thanks, great help', language: 'en' });
    expect(r.body.response).toMatchObject({ sentiment: 'positive' });
    expect((await s.api('GET', '/tools/sentiment', { string: 'terrible, my parcel is late' })).body.response.sentiment).toBe('negative');
    expect((await s.api('GET', '/tools/sentiment')).status).toBe(400);
  });
});
