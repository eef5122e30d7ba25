import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { weekdayIn, weekdayOut } from '../../src/simulator/guesses.js';
import { parseRealism, runSimulatorCommand } from '../../src/simulator/run-simulator-command.js';
import { startSim, V, type TestSim } from './sim-helpers.js';

// The guess options of issue 26: each makes the simulated service answer otherwise where engage-api.md is silent.
let s: TestSim;
const WA = [{ type: 'whatsapp', service_id: '3225550100' }];
beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.close());
afterEach(() => s.sim.reset());

const realism = (body: Record<string, unknown>) => s.control('POST', '/_sim/realism', body);
const reply = (mentionId: string) =>
  s.api('POST', '/1001/publisher/add', {
    version: V,
    type: 'reply',
    topic_id: '2001',
    mention_id: mentionId,
    services: WA,
    message: 'On it!',
    status: '',
  });

describe('guess options', () => {
  it('are all off by default, set through the control API and back to the start values on reset', async () => {
    const initial = (await s.control('GET', '/_sim/realism')).body;
    expect(initial).toMatchObject({
      handover_date_hidden: false,
      echo_author_anonymous: false,
      publish_answer_shape: 'envelope',
      mentions_ignore: [],
      loose_types: false,
      thread_id_root: false,
      topics_page_size: 0,
      delete_body_ignored: false,
      canned_type_case: 'lower',
      weekday_numbering: 'sunday0',
      rate_limit_body: 'envelope',
      handover_404_new_contacts: false,
    });
    expect((await realism({ publish_answer_shape: 'array', mentions_ignore: ['sort'] })).body).toMatchObject({
      publish_answer_shape: 'array',
      mentions_ignore: ['sort'],
    });
    await s.control('POST', '/_sim/reset');
    expect((await s.control('GET', '/_sim/realism')).body).toEqual(initial);
  });

  it('refuses a value outside each option’s list with a 400 naming the key', async () => {
    const bad = await realism({ mentions_ignore: ['page_token'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toContain('mentions_ignore');
    expect((await realism({ weekday_numbering: 'tuesday3' })).status).toBe(400);
    expect((await realism({ topics_page_size: -1 })).status).toBe(400);
  });

  it('handover_date_hidden: handover items show the owner and no date', async () => {
    await s.inbound('whatsapp', '3248001', 'hi');
    await realism({ handover_date_hidden: true });
    const r = await s.api('GET', '/1001/inbox/handover/whatsapp/3248001', { version: V });
    expect(r.body.response.owner).toBe('agents');
    expect(r.body.response).not.toHaveProperty('date');
    const tool = await s.control('POST', '/_sim/handover', { channel: 'whatsapp', service_id: '3248001', owner: 'agents' });
    expect(tool.body).not.toHaveProperty('date');
  });

  it("echo_author_anonymous: the account's own message names the stream and the publisher mention no user", async () => {
    const m = await s.inbound('whatsapp', '3248002', 'hi');
    await realism({ echo_author_anonymous: true });
    const r = await reply(String(m['id']));
    expect(r.body.response.publisher_mention).not.toHaveProperty('user_id');
    const list = await s.api('GET', '/1001/inbox/mentions', { version: V, limit: 5 });
    const echo = list.body.response.data.find((x: { author: { managed: boolean } }) => x.author.managed);
    expect(echo.author).toMatchObject({ id: '3225550100', name: 'Demo WhatsApp', managed: true });
  });

  it.each([
    ['empty', (text: string) => expect(text).toBe('')],
    ['array', (text: string) => expect(JSON.parse(text)).toEqual([expect.objectContaining({ status: 'posted' })])],
    ['id_only', (text: string) => expect(JSON.parse(text)).toEqual({ id: expect.any(String) })],
  ])('publish_answer_shape %s: a 200 with that body, and the reply is sent', async (shape, check) => {
    const m = await s.inbound('whatsapp', `32480${shape.length}`, 'hi');
    await realism({ publish_answer_shape: shape });
    const r = await reply(String(m['id']));
    expect(r.status).toBe(200);
    check(r.text);
    expect(s.sim.outbound.after(0, 10).map((o) => o.message)).toEqual(['On it!']);
  });

  it('mentions_ignore: the listed parameters are read as if they were not sent (sort: newest first)', async () => {
    await s.inbound('whatsapp', '3248010', 'one');
    await s.inbound('viber', '3248011', 'two');
    await s.inbound('whatsapp', '3248012', 'three');
    await realism({ mentions_ignore: ['filter', 'sort', 'limit'] });
    const r = await s.api('GET', '/1001/inbox/mentions', { version: V, filter: 'source:viber', sort: 'dateadd:asc', limit: 1 });
    expect(r.status).toBe(200);
    expect(r.body.meta.messages).toBeUndefined();
    expect(r.body.response.data.map((x: { message: { content: string } }) => x.message.content)).toEqual(['three', 'two', 'one']);
  });

  it('loose_types: empty objects as [], numeric unique_id, string timestamps, nameless tags, id-less clicked buttons, string meta.code', async () => {
    await s.inbound('whatsapp', '3248020', 'hi');
    await realism({ loose_types: true });
    const r = await s.api('GET', '/1001/inbox/mentions', { version: V, limit: 1 });
    expect(r.body.meta.code).toBe('200');
    const m = r.body.response.data[0];
    expect(typeof m.unique_id).toBe('number');
    expect(typeof m.date.added).toBe('string');
    expect(m.extra_fields).toEqual([]);
    expect(m.tags).toContainEqual({ id: 'sim-untitled', status: 'active' });
  });

  it('thread_id_root: every mention of a conversation carries the root mention’s id as its thread', async () => {
    const first = await s.inbound('whatsapp', '3248030', 'one');
    await s.inbound('whatsapp', '3248030', 'two');
    await realism({ thread_id_root: true });
    const r = await s.api('GET', '/1001/inbox/mentions', { version: V, limit: 5 });
    const threads = r.body.response.data.map((x: { source: { thread_id: string } }) => x.source.thread_id);
    expect(threads).toEqual([String(first['id']), String(first['id'])]);
  });

  it('topics_page_size: topics come that many per page, whatever limit says', async () => {
    await realism({ topics_page_size: 1 });
    const r = await s.api('GET', '/1001/settings/topics', { version: V, limit: 50 });
    expect(r.body.response.data).toHaveLength(1);
  });

  it('delete_body_ignored: a DELETE reads its query only', async () => {
    await s.inbound('whatsapp', '3248040', 'hi');
    await realism({ delete_body_ignored: true });
    const body = await s.api('DELETE', '/1001/inbox/handover/whatsapp/3248040', {}, { token: null, headers: {} });
    expect(body.status).toBe(401);
    const viaBody = await fetch(`${s.url}/1001/inbox/handover/whatsapp/3248040`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'access_token=sim-token',
    });
    expect(viaBody.status).toBe(401);
    const viaQuery = await fetch(`${s.url}/1001/inbox/handover/whatsapp/3248040?access_token=sim-token`, { method: 'DELETE' });
    expect(viaQuery.status).toBe(200);
  });

  it('canned_type_case and weekday_numbering: types and weekdays as the option says', async () => {
    await realism({ canned_type_case: 'upper', weekday_numbering: 'monday1' });
    const canned = await s.api('GET', '/1001/settings/canned_responses', { version: V });
    expect(canned.body.response.data.map((c: { type: string }) => c.type)).toContain('BUTTONS');
    const hours = await s.api('GET', '/1001/settings/businesshoursschedule/301', { version: V });
    // Monday–Friday: 1..5 counted from Monday = 1, as 1..5 counted from Sunday = 0.
    expect(hours.body.response.periods.map((p: { dayofweek: number }) => p.dayofweek)).toEqual([1, 2, 3, 4, 5]);
    await realism({ weekday_numbering: 'monday0' });
    const monday0 = await s.api('GET', '/1001/settings/businesshoursschedule/301', { version: V });
    expect(monday0.body.response.periods.map((p: { dayofweek: number }) => p.dayofweek)).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    ['text', (t: string) => expect(t).toMatch(/rate limit/i)],
    ['empty', (t: string) => expect(t).toBe('')],
  ])('rate_limit_body %s: the 400 refusal has that body', async (shape, check) => {
    await realism({ rate_limit_body: shape });
    await s.control('POST', '/_sim/faults', { rate_limit: 1 });
    const r = await s.api('GET', '/1001/inbox/mentions', { version: V });
    expect(r.status).toBe(400);
    check(r.text);
    await s.control('POST', '/_sim/faults', {});
    await s.control('POST', '/_sim/rate-limit', { limit: 1 });
    await s.api('GET', '/1001/inbox/mentions', { version: V });
    const limited = await s.api('GET', '/1001/inbox/mentions', { version: V });
    expect(limited.status).toBe(400);
    check(limited.text);
  });

  it('handover_404_new_contacts: GET and POST handover of a contact never handed over answer 404; DELETE still claims', async () => {
    await s.inbound('whatsapp', '3248050', 'hi');
    await realism({ handover_404_new_contacts: true });
    expect((await s.api('GET', '/1001/inbox/handover/whatsapp/3248050', { version: V })).status).toBe(404);
    expect((await s.api('POST', '/1001/inbox/handover/whatsapp/3248050', { version: V })).status).toBe(404);
    expect((await s.api('DELETE', '/1001/inbox/handover/whatsapp/3248050', { version: V })).status).toBe(200);
    expect((await s.api('GET', '/1001/inbox/handover/whatsapp/3248050', { version: V })).body.response.owner).toBe('application');
  });
});

describe('weekday numbering', () => {
  it('writes Sunday as 0, 6, 1 or 7 and reads each back', () => {
    expect((['sunday0', 'monday0', 'sunday1', 'monday1'] as const).map((n) => weekdayOut(0, n))).toEqual([0, 6, 1, 7]);
    for (const n of ['sunday0', 'monday0', 'sunday1', 'monday1'] as const)
      for (let day = 0; day < 7; day++) expect(weekdayIn(weekdayOut(day, n), n)).toBe(day);
  });
});

describe('simulator --realism', () => {
  it('starts with the switches given and keeps them across a reset', async () => {
    const running = await runSimulatorCommand({ port: 0, host: '127.0.0.1', realism: '{"handover_date_hidden":true}', log: () => {} });
    try {
      await fetch(`${running.url}/_sim/reset`, { method: 'POST' });
      const r = (await (await fetch(`${running.url}/_sim/realism`)).json()) as Record<string, unknown>;
      expect(r['handover_date_hidden']).toBe(true);
    } finally {
      await running.close();
    }
  });

  it('refuses text that is not JSON, or a value out of range, naming the key', () => {
    expect(() => parseRealism('handover_date_hidden')).toThrow(/--realism must be a JSON object/);
    expect(() => parseRealism('{"publish_answer_shape":"xml"}')).toThrow(/--realism: publish_answer_shape/);
  });
});
