import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, type EngageClient } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
let client: EngageClient;
beforeEach(async () => {
  server = await startScriptedServer();
  client = testClient(server).client;
});
afterEach(async () => {
  await server.close();
});

const schedule = {
  id: 31,
  name: 'Support desk',
  timezone: 'Europe/Brussels',
  periods: [{ dayofweek: 1, start: '0900', end: '1700' }],
  is_active: true,
  users: { total: 2, available: 1, busy: 0, unavailable: 1 },
};
const calls = () => server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
async function refused(call: Promise<unknown>): Promise<void> {
  await expect(call).rejects.toBeInstanceOf(InvalidParameterError);
  expect(server.requests).toHaveLength(0);
}

describe('users', () => {
  it('gets, updates and deletes a user', async () => {
    server.script(
      ok({
        id: 'u1',
        account_role: { id: 3, name: 'Agent', topics: [], permissions: [] },
        status: 'Available',
        businesshours_is_active: true,
      }),
      ok({ id: 'u1', business_hours_schedule_id: 31 }),
      ok(true),
    );
    const user = await client.users.get('u1');
    const updated = await client.users.update('u1', { business_hours_schedule_id: 31 });
    expect(await client.users.delete('u1')).toBe(true);
    expect(calls()).toEqual(['GET /1001/settings/user/u1', 'POST /1001/settings/user/u1', 'DELETE /1001/settings/user/u1']);
    expect(user.account_role).toMatchObject({ id: '3', name: 'Agent' });
    expect(updated.business_hours_schedule_id).toBe('31');
    expect(JSON.parse(server.requests[1]!.params.get('updates')!)).toEqual({ business_hours_schedule_id: '31' });
  });

  it('refuses a user update of anything but business_hours_schedule_id or account_role', async () => {
    await refused(client.users.update('u1', { status: 'Busy' } as never));
    await refused(client.users.update('u1', {}));
  });
});

describe('business hours schedules', () => {
  it('lists, creates, gets, updates and deletes schedules', async () => {
    server.script(ok({ data: [schedule], paging: { next_url: null } }), ok(schedule), ok(schedule), ok(schedule), ok(true));
    const list = await client.businessHours.list({ limit: 200 });
    await client.businessHours.create({
      name: 'Support desk',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 1, start: '0900', end: '2400' }],
    });
    await client.businessHours.get(31);
    await client.businessHours.update(31, { name: 'Desk' });
    await client.businessHours.delete(31);
    expect(list.data[0]?.users).toMatchObject({ total: 2 });
    expect(calls()).toEqual([
      'GET /1001/settings/businesshoursschedules',
      'POST /1001/settings/businesshoursschedules',
      'GET /1001/settings/businesshoursschedule/31',
      'POST /1001/settings/businesshoursschedule/31',
      'DELETE /1001/settings/businesshoursschedule/31',
    ]);
    expect(JSON.parse(server.requests[1]!.params.get('business_hours_schedule')!)).toEqual({
      name: 'Support desk',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 1, start: '0900', end: '2400' }],
    });
    expect(JSON.parse(server.requests[3]!.params.get('updates')!)).toEqual({ name: 'Desk' });
  });

  it('validates the list limit (0..200) and the periods of a new schedule', async () => {
    await refused(client.businessHours.list({ limit: 201 }));
    const base = { name: 'x', timezone: 'Europe/Brussels' };
    await refused(client.businessHours.create({ ...base, periods: [{ dayofweek: 7, start: '0900', end: '1700' }] }));
    await refused(client.businessHours.create({ ...base, periods: [{ dayofweek: 1, start: '9:00', end: '1700' }] }));
    await refused(client.businessHours.create({ ...base, periods: [{ dayofweek: 1, start: '1700', end: '0900' }] }));
    await refused(client.businessHours.create({ ...base, periods: [{ dayofweek: 1, start: '0960', end: '1000' }] }));
    await refused(client.businessHours.update(31, {}));
  });
});

describe('profile groups', () => {
  it('lists and creates a profile group', async () => {
    const group = { id: 4, name: 'Chat', color: '#1f77b4', profiles: [{ type: 'whatsapp', service_id: '1' }] };
    server.script(ok({ data: [group], paging: { next_url: null } }), ok(group));
    const list = await client.profileGroups.list({ limit: 5 });
    const created = await client.profileGroups.create({
      name: 'Chat',
      color: '#1f77b4',
      profiles: [{ type: 'whatsapp', service_id: '1' }],
    });
    expect(list.data[0]?.id).toBe('4');
    expect(created.color).toBe('#1f77b4');
    expect(calls()).toEqual(['GET /1001/settings/profilegroups', 'POST /1001/settings/profilegroups']);
    expect(JSON.parse(server.requests[1]!.params.get('profile_group')!)).toMatchObject({ color: '#1f77b4' });
  });

  it('refuses a colour that is not #rrggbb and a limit above 200', async () => {
    for (const color of ['1f77b4', '#1f77b', '#1f77bz', 'red']) {
      await refused(client.profileGroups.create({ name: 'x', color, profiles: [] }));
    }
    await refused(client.profileGroups.list({ limit: 201 }));
  });
});

describe('account lists and tools', () => {
  it('lists canned responses with their buttons', async () => {
    server.script(
      ok({
        data: [{ id: 5, name: 'Main menu', type: 'buttons', message: 'Pick', data: { buttons: [{ id: 'b1', title: 'Opening hours' }] } }],
        paging: { next_url: null },
      }),
    );
    const list = await client.cannedResponses.list();
    expect(calls()).toEqual(['GET /1001/settings/canned_responses']);
    expect(list.data[0]?.data?.buttons?.[0]?.title).toBe('Opening hours');
  });

  it('reads topics and tags as a page or as a bare array', async () => {
    server.script(ok([{ id: 2001, name: 'Support' }]), ok({ data: [{ name: 'vip', status: 'active' }], paging: { next_url: null } }));
    const topics = await client.topics.list();
    const tags = await client.tags.list();
    expect(topics.data[0]).toMatchObject({ id: '2001', name: 'Support' });
    expect(tags.data[0]?.name).toBe('vip');
    expect(calls()).toEqual(['GET /1001/settings/topics', 'GET /1001/settings/tags']);
  });

  it('reads every topic through every page, however few a page holds (issue 26)', async () => {
    server.script(
      ok({ data: [{ id: 2001 }], paging: { next_url: `${server.baseUrl}/1001/settings/topics?page_token=p2` } }),
      ok({ data: [{ id: 2002 }], paging: { next_url: null } }),
    );
    expect((await client.topics.all({ limit: 200 })).map((t) => t.id)).toEqual(['2001', '2002']);
  });

  it('reads /me/accounts without the account prefix and passes fields', async () => {
    server.script(ok({ data: [{ id: 1001, name: 'Shop' }], paging: { next_url: null } }));
    const accounts = await client.me.accounts({ fields: ['id', 'name'] });
    expect(accounts).toEqual([{ id: '1001', name: 'Shop' }]);
    expect(calls()).toEqual(['GET /me/accounts']);
    expect(server.requests[0]!.params.get('fields')).toBe('id,name');
  });

  it('asks /tools/sentiment with text and language and refuses empty text', async () => {
    server.script(ok('positive'));
    expect(await client.tools.sentiment({ text: 'great service', language: 'en' })).toEqual({ sentiment: 'positive' });
    expect(server.requests[0]!.params.get('text')).toBe('great service');
    expect(server.requests[0]!.params.get('language')).toBe('en');
    server.requests.length = 0;
    await refused(client.tools.sentiment({ text: '  ' }));
  });
});
