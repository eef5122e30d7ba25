import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiAnswer } from './sim-helpers.js';
import { defaultSeed } from '../../src/simulator/index.js';
import { startSim, V, type TestSim } from './sim-helpers.js';

// One block per rule of engage-api.md the simulator enforces; each names the line it enforces and shows
// a refused input (400 invalid_parameter, nothing changed) next to an accepted one.
let s: TestSim;
beforeAll(async () => {
  // The demo seed plus an e-mail profile, so the e-mail-only parameters have somewhere to go.
  s = await startSim({
    seed: { ...defaultSeed, profiles: [...defaultSeed.profiles, { type: 'email', service_id: 'care@shop.example', name: 'Care' }] },
  });
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

describe('publisher add: to "emails only; each id is an <EMAIL> address", subject "emails only"', () => {
  const EMAIL = { type: 'email', service_id: 'care@shop.example' };
  const WHATSAPP = { type: 'whatsapp', service_id: '3225550100' };
  const add = (params: Record<string, unknown>) => s.api('POST', '/1001/publisher/add', { version: V, ...params });

  it('refuses to and subject on a reply through a chat service, and publishes nothing', async () => {
    const m = await s.inbound('whatsapp', 'mail1', 'hello');
    const before = s.sim.outbound.after(0, 100_000).length;
    const reply = { type: 'reply', topic_id: '2001', mention_id: m['id'], services: [WHATSAPP], message: 'hi', status: '' };
    const withSubject = await add({ ...reply, subject: 'Your order' });
    refusedAsInvalid(withSubject);
    expect(withSubject.body.error_description).toContain("'subject'");
    refusedAsInvalid(await add({ ...reply, to: [{ id: 'ann@example.com' }] }));
    refusedAsInvalid(await add({ ...reply, subject: '' }));
    expect(s.sim.outbound.after(0, 100_000).length).toBe(before);
    expect((await add(reply)).status).toBe(200);
  });

  it('refuses them when any one of several services is not an e-mail service', async () => {
    const r = await add({ type: 'post', services: [EMAIL, WHATSAPP], message: 'news', status: 'draft', subject: 'News' });
    refusedAsInvalid(r);
  });

  it('accepts to and subject when every service is an e-mail service', async () => {
    const r = await add({
      type: 'post',
      services: [EMAIL],
      message: 'news',
      status: 'draft',
      subject: 'News',
      to: [{ id: 'ann@example.com' }],
    });
    expect(r.status, r.text).toBe(200);
    refusedAsInvalid(await add({ type: 'post', services: [EMAIL], message: 'news', status: 'draft', to: [{ id: 'not-an-address' }] }));
  });
});

describe('media: "ids returned by the media/add endpoint"', () => {
  const mediaAdd = (params: Record<string, unknown>, token?: string) =>
    s.api('POST', '/1001/publisher/media/add', { version: V, ...params }, token ? { token } : {});
  const reply = async (media: unknown[]) => {
    const m = await s.inbound('whatsapp', 'media1', 'send me a picture');
    return s.api('POST', '/1001/publisher/add', {
      version: V,
      type: 'reply',
      topic_id: '2001',
      mention_id: m['id'],
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
      status: '',
      media,
    });
  };

  it('media/add answers a media item with an id, from a url or base64 data', async () => {
    const byUrl = await mediaAdd({ url: 'https://cdn.example/menu.png' });
    expect(byUrl.status, byUrl.text).toBe(200);
    expect(byUrl.body.response).toMatchObject({ id: expect.any(String), filename: 'menu.png', url: 'https://cdn.example/menu.png' });
    const byData = await mediaAdd({ data: Buffer.from('png bytes').toString('base64'), filename: 'a.png' });
    expect(byData.body.response).toMatchObject({ filename: 'a.png', size: 9 });
    expect(byData.body.response.id).not.toBe(byUrl.body.response.id);
  });

  it('media/add refuses no file, two files, a bad address or bad base64, and a GET', async () => {
    refusedAsInvalid(await mediaAdd({}));
    refusedAsInvalid(await mediaAdd({ url: 'https://cdn.example/a.png', data: 'AAAA' }));
    refusedAsInvalid(await mediaAdd({ url: 'file:///etc/passwd' }));
    refusedAsInvalid(await mediaAdd({ data: 'not base64!' }));
    expect((await s.api('GET', '/1001/publisher/media/add', { url: 'https://cdn.example/a.png' })).status).toBe(405);
  });

  it('publisher add refuses a media id media/add never returned, and publishes nothing', async () => {
    const before = s.sim.outbound.after(0, 100_000).length;
    const r = await reply(['424242']);
    refusedAsInvalid(r);
    expect(r.body.error_description).toContain('media/add');
    expect(s.sim.outbound.after(0, 100_000).length).toBe(before);
  });

  it('publisher add accepts media ids from media/add, with no message', async () => {
    const id = (await mediaAdd({ url: 'https://cdn.example/menu.png' })).body.response.id as string;
    const r = await reply([id, Number(id)]);
    expect(r.status, r.text).toBe(200);
  });
});

describe('paged lists: "the response offers paging.next_url and previous_url"', () => {
  let p: TestSim;
  let now = 1_700_000_000_000;
  beforeAll(async () => {
    p = await startSim({ clock: () => now });
    for (let i = 0; i < 12; i++) {
      now += 1000;
      await p.inbound(i % 2 ? 'web' : 'whatsapp', `pg${i}`, `page me ${i}`);
    }
  });
  afterAll(() => p.close());
  const follow = (url: string) => p.api('GET', url.slice(p.url.length));
  const ids = (r: ApiAnswer) => r.body.response.data.map((m: { id: string }) => m.id) as string[];

  for (const sort of ['dateadd:asc', 'dateadd:desc']) {
    it(`inbox mentions (${sort}): previous_url leads back through the pages next_url went through, null on the first`, async () => {
      const forward: string[][] = [];
      let r = await p.api('GET', '/1001/inbox/mentions', { version: V, sort, limit: '5' });
      expect(r.body.response.paging.previous_url).toBeNull();
      for (;;) {
        forward.push(ids(r));
        const next: string | null = r.body.response.paging.next_url;
        if (!next) break;
        r = await follow(next);
      }
      expect(forward.map((page) => page.length)).toEqual([5, 5, 2]);
      const backward: string[][] = [ids(r)];
      while (r.body.response.paging.previous_url) {
        const previous: string = r.body.response.paging.previous_url;
        expect(previous.startsWith(`${p.url}/1001/inbox/mentions?`)).toBe(true);
        expect(previous).not.toContain('sim-token');
        r = await follow(previous);
        backward.unshift(ids(r));
      }
      expect(backward).toEqual(forward);
      // From a page reached backwards, next_url goes forward again.
      expect(ids(await follow(r.body.response.paging.next_url))).toEqual(forward[1]);
    });
  }

  it('inbox mentions: a page token we did not issue is refused', async () => {
    const token = Buffer.from(JSON.stringify({ a: 1, n: 1, p: 2 })).toString('base64url');
    refusedAsInvalid(await p.api('GET', '/1001/inbox/mentions', { version: V, page_token: token }));
  });

  it('publisher mentions, contacts and the settings lists offer previous_url from the second page on', async () => {
    for (let i = 0; i < 3; i++) {
      await p.api('POST', '/1001/publisher/add', {
        version: V,
        type: 'post',
        services: [{ type: 'whatsapp', service_id: '3225550100' }],
        message: `draft ${i}`,
        status: 'draft',
      });
    }
    for (const path of ['/1001/publisher/mentions', '/1001/inbox/contacts', '/1001/settings/canned_responses']) {
      const first = await p.api('GET', path, { version: V, limit: '2' });
      expect(first.status, `${path} ${first.text}`).toBe(200);
      expect(first.body.response.paging.previous_url, path).toBeNull();
      const second = await follow(first.body.response.paging.next_url);
      expect(second.body.response.paging.previous_url, path).toContain('page_token=');
      expect(ids(await follow(second.body.response.paging.previous_url))).toEqual(ids(first));
    }
  });
});

describe('attachments: "an attachment carries question (from version 20180213)"', () => {
  const withAttachment = async () =>
    s.inbound('whatsapp', 'att1', 'here is my receipt', {
      attachments: [{ type: 'image', url: 'https://cdn.example/receipt.png', question: 'Upload your receipt' }],
    });
  const get = (id: unknown, version?: string) => s.api('GET', `/1001/inbox/mention/2001/${String(id)}`, version ? { version } : {});

  it('omits question below version 20180213 and without a version (the oldest behaviour)', async () => {
    const m = await withAttachment();
    for (const version of ['20180212', '20160108', undefined]) {
      const r = await get(m['id'], version);
      expect(r.status).toBe(200);
      expect(r.body.response.attachments, String(version)).toEqual([{ type: 'image', url: 'https://cdn.example/receipt.png' }]);
    }
    const listed = await s.api('GET', '/1001/inbox/mentions', { version: '20180212', filter: 'source:whatsapp', limit: '100' });
    const inList = listed.body.response.data.find((x: { id: string }) => x.id === m['id']);
    expect(inList.attachments[0]).not.toHaveProperty('question');
  });

  it('carries question from version 20180213 on (null when the attachment answers none)', async () => {
    const m = await withAttachment();
    for (const version of ['20180213', V]) {
      expect((await get(m['id'], version)).body.response.attachments).toEqual([
        { type: 'image', url: 'https://cdn.example/receipt.png', question: 'Upload your receipt' },
      ]);
    }
    const plain = await s.inbound('whatsapp', 'att2', 'a photo', { attachments: [{ type: 'image', url: 'https://cdn.example/p.png' }] });
    expect((await get(plain['id'], V)).body.response.attachments).toEqual([
      { type: 'image', url: 'https://cdn.example/p.png', question: null },
    ]);
  });

  it('the control API refuses an attachment it cannot show', async () => {
    const r = await s.control('POST', '/_sim/inbound', {
      channel: 'whatsapp',
      author: { id: 'att3' },
      text: 'x',
      attachments: [{ type: 'image', url: 'file:///etc/passwd' }],
    });
    refusedAsInvalid(r);
  });
});

describe('source.thread_id: "optional; ... not available for all sources" (realism omit_thread_id_sources)', () => {
  const threadIds = async (t: TestSim, ids: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (const id of ids) {
      const r = await t.api('GET', `/1001/inbox/mention/2001/${String(id)}`, { version: V });
      out[r.body.response.source.service] = r.body.response.source.thread_id;
    }
    return out;
  };

  it('is off by default: every mention carries source.thread_id', async () => {
    expect((await s.control('GET', '/_sim/realism')).body.omit_thread_id_sources).toEqual([]);
    const fb = await s.inbound('facebook', 'th1', 'hi');
    expect((fb['source'] as Record<string, unknown>)['thread_id']).toBe('th1');
  });

  it('set at start, omits source.thread_id on the chosen sources only, in single GETs and in lists', async () => {
    const t = await startSim({ realism: { omit_thread_id_sources: ['facebook'] } });
    try {
      const fb = await t.inbound('facebook', 'th2', 'hello from facebook');
      const wa = await t.inbound('whatsapp', 'th3', 'hello from whatsapp');
      expect(fb['source']).not.toHaveProperty('thread_id');
      expect(await threadIds(t, [fb['id'], wa['id']])).toEqual({ facebook: undefined, whatsapp: 'th3' });
      const listed = (await t.api('GET', '/1001/inbox/mentions', { version: V })).body.response.data;
      const bySource = Object.fromEntries(listed.map((m: any) => [m.source.service, 'thread_id' in m.source]));
      expect(bySource).toEqual({ facebook: false, whatsapp: true });
    } finally {
      await t.close();
    }
  });

  it('is changed through POST /_sim/realism, refuses a non-list, and reset returns to the start value', async () => {
    const t = await startSim();
    try {
      refusedAsInvalid(await t.control('POST', '/_sim/realism', { omit_thread_id_sources: 'facebook' }));
      refusedAsInvalid(await t.control('POST', '/_sim/realism', { omit_thread_id_sources: ['Face Book'] }));
      const set = await t.control('POST', '/_sim/realism', { omit_thread_id_sources: ['web', 'whatsapp'] });
      expect(set.body.omit_thread_id_sources).toEqual(['web', 'whatsapp']);
      const web = await t.inbound('web', 'th4', 'hi');
      const viber = await t.inbound('viber', 'th5', 'hi');
      expect(await threadIds(t, [web['id'], viber['id']])).toEqual({ web: undefined, viber: 'th5' });
      await t.control('POST', '/_sim/realism', { omit_thread_id_sources: [] });
      expect(await threadIds(t, [web['id']])).toEqual({ web: 'th4' });
      await t.control('POST', '/_sim/realism', { omit_thread_id_sources: ['web'] });
      await t.control('POST', '/_sim/reset');
      expect((await t.control('GET', '/_sim/realism')).body.omit_thread_id_sources).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
