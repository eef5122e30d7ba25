import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, V, type TestSim } from './sim-helpers.js';

let s: TestSim;
let now = 1_700_000_000_000;
beforeAll(async () => {
  s = await startSim({
    clock: () => now,
    seed: {
      ...(await import('../../src/simulator/index.js')).defaultSeed,
      topics: [
        { id: 2001, name: 'Support' },
        { id: 2002, name: 'Sales' },
      ],
    },
  });
  for (let i = 0; i < 25; i++) {
    now += 1000;
    await s.inbound(i % 2 ? 'whatsapp' : 'web', `c${i}`, `message ${i} contact me at x${i}@example.com`);
  }
  await s.inbound('viber', 'sales1', 'a sales question', { topic_id: 2002 });
});
afterAll(() => s.close());

const list = (params: Record<string, unknown>) => s.api('GET', '/1001/inbox/mentions', { version: V, ...params });

describe('mention list', () => {
  it('pages with absolute next_url carrying page_token, and null on the last page', async () => {
    const seen: string[] = [];
    let r = await list({ topic_ids: '2001', sort: 'dateadd:asc', limit: '10' });
    expect(r.body.response.count).toBe(25);
    for (;;) {
      seen.push(...r.body.response.data.map((m: { id: string }) => m.id));
      const next: string | null = r.body.response.paging.next_url;
      if (!next) break;
      expect(next.startsWith(`${s.url}/1001/inbox/mentions?`)).toBe(true);
      expect(next).toContain('page_token=');
      expect(next).not.toContain('sim-token');
      r = await s.api('GET', next.slice(s.url.length));
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe('9001');
  });

  it('sorts newest first by default and on dateadd:desc', async () => {
    const r = await list({ topic_ids: '2001', limit: '3' });
    const ids = r.body.response.data.map((m: { id: string }) => Number(m.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('keeps desc paging stable while new mentions arrive', async () => {
    const first = await list({ topic_ids: '2001', limit: '5', sort: 'dateadd:desc' });
    now += 1000;
    const added = await s.inbound('web', 'late', 'arrived while paging');
    const second = await s.api('GET', first.body.response.paging.next_url.slice(s.url.length));
    const ids = [...first.body.response.data, ...second.body.response.data].map((m: { id: string }) => m.id);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain(added['id']);
    await s.api('DELETE', `/1001/inbox/mention/2001/${String(added['id'])}`);
  });

  it('enforces limit 0..100 and rejects a forged page token', async () => {
    expect((await list({ limit: '101' })).status).toBe(400);
    expect((await list({ limit: '-1' })).status).toBe(400);
    const zero = await list({ limit: '0' });
    expect(zero.body.response.data).toEqual([]);
    expect(zero.body.response.paging.next_url).toBeNull();
    expect((await list({ page_token: 'garbage!' })).status).toBe(400);
  });

  it('filters by topic_ids and by date range', async () => {
    expect((await list({ topic_ids: '2002' })).body.response.count).toBe(1);
    expect((await list({ topic_ids: '2001,2002' })).body.response.count).toBe(26);
    expect((await list({ topic_ids: '9' })).status).toBe(400);
    const from = new Date(1_700_000_005_000).toISOString();
    const to = new Date(1_700_000_009_000).toISOString();
    expect((await list({ topic_ids: '2001', date_from: from, date_to: to })).body.response.count).toBe(5);
    expect((await list({ date_from: 'last week' })).status).toBe(400);
  });

  it('filters with source:, status:, tag: and AND / OR / parentheses', async () => {
    await s.api('POST', '/1001/inbox/mention/2001/9002', { version: V, updates: { tags: ['vip'], status: 'done' } });
    await s.api('POST', '/1001/inbox/mention/2001/9003', { version: V, updates: { tags: ['vip'] } });
    const count = async (filter: string) => (await list({ topic_ids: '2001', filter })).body.response.count as number;
    expect(await count('source:whatsapp')).toBe(12);
    expect(await count('tag:vip')).toBe(2);
    expect(await count('tag:vip AND status:alldone')).toBe(1);
    expect(await count('tag:vip AND status:new')).toBe(1);
    expect(await count('source:whatsapp OR tag:vip')).toBe(13);
    expect(await count('(source:web AND tag:vip) OR (source:whatsapp AND status:done)')).toBe(2);
    expect(await count('source:whatsapp AND NOT tag:vip')).toBe(11);
    for (const bad of ['colour:red', '(tag:vip', 'tag:vip AND', 'status:weird']) {
      const r = await list({ filter: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toBe('invalid_parameter');
    }
  });
});

describe('version table on mentions', () => {
  it('fills unique_id from 20180406 and keeps assignment ids only below 20200427', async () => {
    const oldest = await s.api('GET', '/1001/inbox/mention/2001/9001');
    expect(oldest.body.response.unique_id).toBeNull();
    expect(oldest.body.response.assignment).toHaveProperty('user_ids');
    const mid = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: '20180406' });
    expect(mid.body.response.unique_id).toBe('2001_9001');
    const modern = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: '20200427' });
    expect(modern.body.response.assignment).not.toHaveProperty('user_ids');
    expect(modern.body.response.assignment).not.toHaveProperty('team_ids');
  });

  it('extracts entities below 20201001 and only on request from 20201001', async () => {
    const old = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: '20200930' });
    expect(old.body.response.message.entities).toEqual([{ type: 'email', value: 'x0@example.com' }]);
    const modern = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: '20201001' });
    expect(modern.body.response.message.entities).toEqual([]);
    const asked = await s.api('GET', '/1001/inbox/mention/2001/9001', { version: '20201001', entities: 'true' });
    expect(asked.body.response.message.entities).toHaveLength(1);
  });

  it('fills source.profile of a facebook private message from 20180125', async () => {
    const m = await s.inbound('facebook', 'fbuser', 'private hello');
    const url = `/1001/inbox/mention/2001/${String(m['id'])}`;
    expect((await s.api('GET', url, { version: '20180124' })).body.response.source).not.toHaveProperty('profile');
    const r = await s.api('GET', url, { version: '20180125' });
    expect(r.body.response.source.profile).toEqual({ id: 'fbuser', name: 'Customer fbuser' });
    await s.api('DELETE', url);
  });

  it('needs version 20160108 for the sendMail option', async () => {
    const old = await s.api('POST', '/1001/inbox/mention/2001/9004', { version: '20160107', updates: {}, options: { sendMail: true } });
    expect(old.status).toBe(400);
    const ok = await s.api('POST', '/1001/inbox/mention/2001/9004', { version: '20160108', updates: {}, options: { sendMail: 'true' } });
    expect(ok.status).toBe(200);
  });
});

describe('mention update and delete', () => {
  const url = '/1001/inbox/mention/2001/9005';

  it('updates status, sentiment, assignment and appends notes', async () => {
    const r = await s.api('POST', url, {
      version: '20200101',
      updates: {
        status: 'pending',
        message: { sentiment: 'negative' },
        assignment: { user_ids: ['u2'], comment: 'yours' },
        actions: [{ type: 'note', extra: 'called back' }],
      },
    });
    expect(r.status).toBe(200);
    const m = r.body.response;
    expect(m).toMatchObject({ status: 'pending', message: { sentiment: 'negative' } });
    expect(m.assignment).toEqual({ user_ids: ['u2'], team_ids: [], comment: 'yours' });
    expect(m.assignees).toEqual([{ id: 'u2', type: 'user', display_name: 'Alice Agent' }]);
    expect(m.actions).toEqual([expect.objectContaining({ type: 'note', extra: 'called back', user_id: 'u1' })]);
  });

  it('refuses unknown keys in updates and options and bad values, changing nothing', async () => {
    for (const params of [
      { updates: { colour: 'red' } },
      { updates: { status: 'closed' } },
      { updates: { status: 'done', priority: 'high' } },
      { updates: {}, options: { explode: true } },
      { updates: { assignment: { user_ids: ['ghost'] } } },
      { updates: { message: { content: 'rewrite' } } },
    ]) {
      const r = await s.api('POST', url, { version: V, ...params });
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.error).toBe('invalid_parameter');
    }
    expect((await s.api('GET', url)).body.response.status).toBe('pending');
  });

  it('warns when the updated mention no longer fits list_filter', async () => {
    const r = await s.api('POST', url, { version: V, updates: { status: 'done' }, list_filter: 'status:new' });
    expect(r.status).toBe(200);
    expect(r.body.meta.messages[0].text).toContain('list_filter');
    const fits = await s.api('POST', url, { version: V, updates: { status: 'new' }, list_filter: 'status:new' });
    expect(fits.body.meta.messages).toBeUndefined();
  });

  it('edits mention tags with tags_edit_mode', async () => {
    await s.api('POST', url, { version: V, updates: { tags: ['a', 'b'] } });
    const added = await s.api('POST', url, { version: V, updates: { tags: ['c'] }, options: { tags_edit_mode: 'add' } });
    expect(added.body.response.tags).toEqual(['a', 'b', 'c']);
    const removed = await s.api('POST', url, { version: V, updates: { tags: ['a'] }, options: { tags_edit_mode: 'delete' } });
    expect(removed.body.response.tags).toEqual(['b', 'c']);
  });

  it('deletes a mention with true, after which it is gone', async () => {
    const r = await s.api('DELETE', '/1001/inbox/mention/2001/9006', { options: { hide_on_service: true } });
    expect(r.body.response).toBe(true);
    expect((await s.api('GET', '/1001/inbox/mention/2001/9006')).status).toBe(404);
    expect((await s.api('DELETE', '/1001/inbox/mention/2001/9007', { options: { nuke: true } })).status).toBe(400);
  });
});
