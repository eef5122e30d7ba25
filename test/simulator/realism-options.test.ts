import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, startSim, V, type TestSim } from './sim-helpers.js';

// The realism options of issue 10: each one reproduces a way the real service differs from the description.
const clock = manualClock(1_700_000_000_000);
const own = (): number => Math.floor(clock.now() / 1000);
let s: TestSim;
beforeAll(async () => {
  s = await startSim({ clock: clock.now });
});
afterAll(() => s.close());
afterEach(() => s.sim.reset());

describe('clock_offset_seconds', () => {
  it('stamps date.added, date.updated and handover dates with the service clock, offset from the simulator clock', async () => {
    const set = await s.control('POST', '/_sim/realism', { clock_offset_seconds: -3 });
    expect(set.body.clock_offset_seconds).toBe(-3);
    const m = await s.inbound('whatsapp', '3247100', 'hello');
    expect(m['date']).toEqual({ added: own() - 3, updated: own() - 3 });
    clock.advance(5000);
    const upd = await s.api('POST', `/1001/inbox/mention/2001/${String(m['id'])}`, {
      updates: { status: 'done' },
      version: V,
    });
    expect(upd.body.response.date.updated).toBe(own() - 3);
    const ho = await s.api('POST', '/1001/inbox/handover/whatsapp/3247100', { version: V });
    expect(ho.body.response.date.updated).toBe(own() - 3);
    const tool = await s.control('POST', '/_sim/handover', { channel: 'whatsapp', service_id: '3247100', owner: 'application' });
    expect(tool.body.date.updated).toBe(own() - 3);
    expect((await s.control('POST', '/_sim/clock', {})).body.now).toBe(own());
  });

  it('runs the service clock ahead with a positive offset, set at start', async () => {
    const ahead = await startSim({ clock: clock.now, realism: { clock_offset_seconds: 7 } });
    try {
      const m = await ahead.inbound('whatsapp', '3247101', 'hi');
      expect((m['date'] as { added: number }).added).toBe(own() + 7);
      expect((await ahead.control('GET', '/_sim/realism')).body.clock_offset_seconds).toBe(7);
    } finally {
      await ahead.close();
    }
  });

  it("says the service clock's time in every answer's Date header, and the rate-limit reset on the same clock", async () => {
    await s.control('POST', '/_sim/realism', { clock_offset_seconds: 3600, rate_limit_headers: 'both' });
    const r = await s.api('GET', '/1001/inbox/mentions', { version: V });
    expect(Date.parse(r.headers.get('date') ?? '') / 1000).toBe(own() + 3600);
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(own() + 3600);
    expect(reset).toBeLessThanOrEqual(own() + 3600 + 3600);
  });

  it('refuses an offset that is not a whole number of seconds within a day', async () => {
    expect((await s.control('POST', '/_sim/realism', { clock_offset_seconds: 1.5 })).status).toBe(400);
    expect((await s.control('POST', '/_sim/realism', { clock_offset_seconds: 90_000 })).status).toBe(400);
  });
});

const listedIds = async (t: TestSim, filter?: string): Promise<string[]> => {
  const r = await t.api('GET', '/1001/inbox/mentions', { version: V, limit: 100, ...(filter ? { filter } : {}) });
  expect(r.status).toBe(200);
  return (r.body.response.data as { id: unknown }[]).map((m) => String(m.id));
};

describe('late_indexing_seconds', () => {
  it('lists a new mention, filtered or not, only that many seconds after its date.added; by id at once', async () => {
    const set = await s.control('POST', '/_sim/realism', { late_indexing_seconds: 10, clock_offset_seconds: -2 });
    expect(set.body.late_indexing_seconds).toBe(10);
    const m = await s.inbound('whatsapp', '3247200', 'late');
    const id = String(m['id']);
    expect((await s.api('GET', `/1001/inbox/mention/2001/${id}`, { version: V })).status).toBe(200);
    expect(await listedIds(s)).not.toContain(id);
    expect(await listedIds(s, 'status:new')).not.toContain(id);
    clock.advance(9000);
    expect(await listedIds(s)).not.toContain(id);
    expect(await listedIds(s, 'source:whatsapp')).not.toContain(id);
    clock.advance(1000);
    expect(await listedIds(s)).toContain(id);
    expect(await listedIds(s, 'status:new')).toContain(id);
  });

  it('applies when given at start and lists at once when off', async () => {
    const late = await startSim({ clock: clock.now, realism: { late_indexing_seconds: 5 } });
    try {
      const hidden = String((await late.inbound('whatsapp', '3247201', 'a'))['id']);
      expect(await listedIds(late)).not.toContain(hidden);
      await late.control('POST', '/_sim/realism', { late_indexing_seconds: 0 });
      const shown = String((await late.inbound('whatsapp', '3247201', 'b'))['id']);
      expect(await listedIds(late)).toEqual([shown]);
      expect((await late.control('POST', '/_sim/realism', { late_indexing_seconds: -1 })).status).toBe(400);
    } finally {
      await late.close();
    }
  });
});

describe('rate_limit_headers', () => {
  const RATE = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
  const present = (h: Headers): string[] => RATE.filter((name) => h.get(name) !== null);
  /** The rate-limit headers of an ordinary answer, a refusal by the limiter and an injected refusal. */
  async function observe(t: TestSim): Promise<{ ok: string[]; refused: string[]; fault: string[] }> {
    await t.control('POST', '/_sim/rate-limit', { user_id: 'u1', limit: 1, window_seconds: 60 });
    const ok = await t.api('GET', '/1001/settings/topics', { version: V });
    const refused = await t.api('GET', '/1001/settings/topics', { version: V });
    expect([ok.status, refused.status, refused.body.error]).toEqual([200, 400, 'rate_limit_reached']);
    await t.control('POST', '/_sim/rate-limit', { user_id: 'u1' });
    await t.control('POST', '/_sim/faults', { rate_limit: 1 });
    const fault = await t.api('GET', '/1001/settings/topics', { version: V });
    await t.control('POST', '/_sim/faults', {});
    expect(fault.body.error).toBe('rate_limit_reached');
    return { ok: present(ok.headers), refused: present(refused.headers), fault: present(fault.headers) };
  }

  it('sends every header by default (both)', async () => {
    expect((await s.control('GET', '/_sim/realism')).body.rate_limit_headers).toBe('both');
    expect(await observe(s)).toEqual({
      ok: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
      refused: RATE,
      fault: ['x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    });
  });

  it('leaves out x-ratelimit-reset with no_reset, keeping Retry-After on refusals', async () => {
    await s.control('POST', '/_sim/realism', { rate_limit_headers: 'no_reset' });
    expect(await observe(s)).toEqual({
      ok: ['x-ratelimit-limit', 'x-ratelimit-remaining'],
      refused: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after'],
      fault: ['x-ratelimit-remaining', 'retry-after'],
    });
  });

  it('sends only Retry-After on refusals with retry_after_only', async () => {
    await s.control('POST', '/_sim/realism', { rate_limit_headers: 'retry_after_only' });
    expect(await observe(s)).toEqual({ ok: [], refused: ['retry-after'], fault: ['retry-after'] });
  });

  it('sends no rate-limit header at all with none, also when set at start', async () => {
    const bare = await startSim({ clock: clock.now, realism: { rate_limit_headers: 'none' } });
    try {
      expect(await observe(bare)).toEqual({ ok: [], refused: [], fault: [] });
      expect((await bare.control('POST', '/_sim/realism', { rate_limit_headers: 'some' })).status).toBe(400);
    } finally {
      await bare.close();
    }
  });
});

describe('gone contacts', () => {
  const lookups = async (t: TestSim, channel: string, id: string, contactId: string): Promise<number[]> => [
    (await t.api('GET', `/1001/inbox/contact/${channel}/${id}`, { version: V, topic_ids: '2001' })).status,
    (await t.api('GET', `/1001/inbox/contact/${contactId}`, { version: V, topic_ids: '2001' })).status,
    (await t.api('GET', `/1001/inbox/handover/${channel}/${id}`, { version: V })).status,
    (await t.api('POST', `/1001/inbox/handover/${channel}/${id}`, { version: V })).status,
    (await t.api('DELETE', `/1001/inbox/handover/${channel}/${id}`, { version: V })).status,
  ];
  const contactIdOf = async (t: TestSim, channel: string, id: string): Promise<string> =>
    String((await t.api('GET', `/1001/inbox/contact/${channel}/${id}`, { version: V, topic_ids: '2001' })).body.response.id);

  it('answers 404 to the contact and handover lookups of a contact marked gone, and serves it again when brought back', async () => {
    await s.inbound('whatsapp', '3247300', 'who am I');
    await s.inbound('whatsapp', '3247301', 'still here');
    const contactId = await contactIdOf(s, 'whatsapp', '3247300');
    expect(await lookups(s, 'whatsapp', '3247300', contactId)).toEqual([200, 200, 200, 200, 200]);
    const gone = await s.control('POST', '/_sim/contact/gone', { channel: 'whatsapp', service_id: '3247300' });
    expect(gone.body).toEqual({ gone_contacts: [{ channel: 'whatsapp', service_id: '3247300' }] });
    expect(await lookups(s, 'whatsapp', '3247300', contactId)).toEqual([404, 404, 404, 404, 404]);
    const again = await s.api('GET', '/1001/inbox/contact/whatsapp/3247300', { version: V, topic_ids: '2001' });
    expect(again.body.error).toBe('not_found');
    // Only that contact: the customer's mentions and other contacts are untouched.
    expect((await s.api('GET', '/1001/inbox/handover/whatsapp/3247301', { version: V })).status).toBe(200);
    expect((await listedIds(s)).length).toBe(2);
    await s.control('POST', '/_sim/contact/gone', { channel: 'whatsapp', service_id: '3247300', gone: false });
    expect(await lookups(s, 'whatsapp', '3247300', contactId)).toEqual([200, 200, 200, 200, 200]);
  });

  it('takes the list at start and through /_sim/realism', async () => {
    const t = await startSim({ clock: clock.now, realism: { gone_contacts: [{ channel: 'viber', service_id: 'v-9' }] } });
    try {
      await t.inbound('viber', 'v-9', 'hello');
      await t.inbound('viber', 'v-10', 'hello');
      const id10 = await contactIdOf(t, 'viber', 'v-10');
      expect((await t.api('GET', '/1001/inbox/contact/viber/v-9', { version: V, topic_ids: '2001' })).status).toBe(404);
      await t.control('POST', '/_sim/realism', { gone_contacts: [{ channel: 'viber', service_id: 'v-10' }] });
      expect(await lookups(t, 'viber', 'v-10', id10)).toEqual([404, 404, 404, 404, 404]);
      expect((await t.api('GET', '/1001/inbox/contact/viber/v-9', { version: V, topic_ids: '2001' })).status).toBe(200);
      expect((await t.control('POST', '/_sim/contact/gone', { channel: 'viber' })).status).toBe(400);
    } finally {
      await t.close();
    }
  });
});

describe('odd_item_rate', () => {
  const contents = async (t: TestSim): Promise<Map<string, unknown>> => {
    const r = await t.api('GET', '/1001/inbox/mentions', { version: V, limit: 100 });
    return new Map(
      (r.body.response.data as { id: unknown; message: { content: unknown } }[]).map((m) => [String(m.id), m.message.content]),
    );
  };

  it('lists every mention with message.content as a number at rate 1, while a GET by id keeps the text', async () => {
    const m = await s.inbound('whatsapp', '3247400', 'odd one');
    expect([...(await contents(s)).values()]).toEqual(['odd one']);
    expect((await s.control('POST', '/_sim/realism', { odd_item_rate: 1 })).body.odd_item_rate).toBe(1);
    expect([...(await contents(s)).values()]).toEqual([7]);
    const one = await s.api('GET', `/1001/inbox/mention/2001/${String(m['id'])}`, { version: V });
    expect(one.body.response.message.content).toBe('odd one');
    expect((await s.control('POST', '/_sim/realism', { odd_item_rate: 1.5 })).status).toBe(400);
  });

  it('rolls with the fault seed: the same seed picks the same items, and an item stays odd on every listing', async () => {
    const pick = async (): Promise<string[]> => {
      const t = await startSim({ clock: clock.now, realism: { odd_item_rate: 0.5 } });
      try {
        await t.control('POST', '/_sim/faults', { seed: 42 });
        for (let i = 0; i < 20; i++) await t.inbound('whatsapp', `32474${i}`, `message ${i}`);
        const first = await contents(t);
        expect(await contents(t)).toEqual(first);
        return [...first].filter(([, c]) => typeof c === 'number').map(([id]) => id);
      } finally {
        await t.close();
      }
    };
    const odd = await pick();
    expect(odd.length).toBeGreaterThan(0);
    expect(odd.length).toBeLessThan(20);
    expect(await pick()).toEqual(odd);
  });
});

describe('overlapping_mention_ids', () => {
  it('numbers each topic on its own, so two topics issue the same id, addressed and paged apart by topic (#11.10)', async () => {
    s.sim.state.topics.set(2002, { id: 2002, name: 'Sales' });
    const off = await s.inbound('whatsapp', '3247300', 'one id counter');
    expect((await s.control('GET', '/_sim/realism')).body.overlapping_mention_ids).toBe(false);
    await s.control('POST', '/_sim/realism', { overlapping_mention_ids: true });
    const a = await s.inbound('whatsapp', '3247301', 'topic one');
    const b = await s.inbound('whatsapp', '3247302', 'topic two', { topic_id: 2002 });
    expect(b['id']).toBe('9001');
    expect(a['id']).toBe(String(Number(off['id']) + 1));
    const again = await s.inbound('whatsapp', '3247303', 'topic two again', { topic_id: 2002 });
    expect(again['id']).toBe('9002');
    const overlap = await s.inbound('whatsapp', '3247304', 'same id as in 2002', { topic_id: 2001 });
    const one = await s.api('GET', `/1001/inbox/mention/2002/9001`, { version: V });
    expect(one.body.response.message.content).toBe('topic two');
    // One id per page: the mentions share a second, so only the topic tells 2001/9001 and 2002/9001 apart.
    const seen: string[] = [];
    let page = await s.api('GET', '/1001/inbox/mentions', { version: V, limit: 1, sort: 'dateadd:asc', topic_ids: '2001,2002' });
    for (let n = 0; n < 10; n++) {
      for (const m of page.body.response.data as Array<{ topic_id: unknown; id: unknown }>)
        seen.push(`${String(m.topic_id)}/${String(m.id)}`);
      const next = page.body.response.paging.next_url as string | null;
      if (!next) break;
      const url = new URL(next);
      page = await s.api('GET', `${url.pathname}${url.search}`);
    }
    expect(seen.sort()).toEqual(
      [`2001/${String(off['id'])}`, `2001/${String(a['id'])}`, `2001/${String(overlap['id'])}`, '2002/9001', '2002/9002'].sort(),
    );
  });
});
