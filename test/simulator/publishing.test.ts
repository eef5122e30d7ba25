import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, V, type TestSim } from './sim-helpers.js';

let s: TestSim;
const WA = [{ type: 'whatsapp', service_id: '3225550100' }];
beforeAll(async () => {
  s = await startSim();
});
afterAll(() => s.close());

const reply = (mentionId: string, extra: Record<string, unknown> = {}) =>
  s.api('POST', '/1001/publisher/add', {
    version: V,
    type: 'reply',
    topic_id: '2001',
    mention_id: mentionId,
    services: WA,
    message: 'On it!',
    status: '',
    ...extra,
  });

describe('publisher/add', () => {
  it('lists profiles and the reply services of a mention on GET, services carrying status from 20180208', async () => {
    const m = await s.inbound('whatsapp', '3247010', 'hello');
    const r = await s.api('GET', '/1001/publisher/add', { version: V, type: 'reply', topic_id: '2001', mention_id: String(m['id']) });
    expect(r.body.response.services).toEqual([{ type: 'whatsapp', service_id: '3225550100', name: 'Demo WhatsApp', status: 'active' }]);
    expect(r.body.response.profiles.length).toBeGreaterThan(1);
    const old = await s.api('GET', '/1001/publisher/add', { version: '20180207' });
    expect(old.body.response.profiles[0]).not.toHaveProperty('status');
    expect((await s.api('GET', '/1001/publisher/add', { type: 'shout' })).status).toBe(400);
  });

  it('sends a direct reply to a private message and records it everywhere', async () => {
    const m = await s.inbound('whatsapp', '3247011', 'where is my parcel?');
    const id = String(m['id']);
    const r = await reply(id);
    expect(r.status).toBe(200);
    const { messages, publisher_mention: pm } = r.body.response;
    expect(messages).toEqual([{ id: expect.any(String), service: 'whatsapp', service_id: '3225550100', status: 'sent' }]);
    expect(pm.status).toBe('posted');
    expect(pm.in_reply_to.id).toBe(id);

    const got = await s.api('GET', `/1001/publisher/mention/${pm.id}`, { version: V });
    expect(got.body.response.in_reply_to.id).toBe(id);
    const listed = await s.api('GET', '/1001/publisher/mentions', { version: V, status: 'posted' });
    const item = listed.body.response.data.find((x: { id: string }) => x.id === pm.id);
    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('in_reply_to');

    const inbox = await s.api('GET', '/1001/inbox/mentions', { version: V, limit: '100' });
    const mine = inbox.body.response.data.filter((x: { source: { thread_id: string } }) => x.source.thread_id === '3247011');
    expect(mine.map((x: { author: { managed: boolean } }) => x.author.managed).sort()).toEqual([false, true]);
    const original = await s.api('GET', `/1001/inbox/mention/2001/${id}`, { version: V });
    expect(original.body.response.actions).toEqual([]);

    const out = await s.control('GET', '/_sim/outbound?after=0');
    const last = out.body.at(-1);
    expect(last).toMatchObject({
      type: 'reply',
      message: 'On it!',
      mention_id: id,
      topic_id: 2001,
      status: 'posted',
      services: WA,
      recipient: { channel: 'whatsapp', service_id: '3247011' },
      author: 'bot',
      user_id: null,
    });
    expect(typeof last.seq).toBe('number');
    expect((await s.control('GET', `/_sim/outbound?after=${last.seq}`)).body).toEqual([]);
  });

  it('allows only drafts or approval for public posts and refuses direct publishing of them', async () => {
    const direct = await s.api('POST', '/1001/publisher/add', { version: V, type: 'post', services: WA, message: 'Sale!', status: '' });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toBe('invalid_parameter');
    const noStatus = await s.api('POST', '/1001/publisher/add', { version: V, type: 'post', services: WA, message: 'Sale!' });
    expect(noStatus.status).toBe(400);
    for (const status of ['draft', 'awaitingapproval']) {
      const r = await s.api('POST', '/1001/publisher/add', { version: V, type: 'post', services: WA, message: 'Sale!', status });
      expect(r.status).toBe(200);
      expect(r.body.response.publisher_mention.status).toBe(status);
      expect(r.body.response.messages[0].status).toBe('queued');
    }
    expect((await s.api('POST', '/1001/publisher/add', { type: 'post', services: WA, message: 'x', status: 'now' })).status).toBe(400);
  });

  it("refuses a reply from a service id that GET publisher/add did not list, such as the customer's own id", async () => {
    const m = await s.inbound('whatsapp', '3247019', 'hello');
    const id = String(m['id']);
    const refused = await reply(id, { services: [{ type: 'whatsapp', service_id: '3247019' }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('GET publisher/add');
    const listed = await s.api('GET', '/1001/publisher/add', { version: V, type: 'reply', topic_id: '2001', mention_id: id });
    const services = listed.body.response.services.map((x: { type: string; service_id: string }) => ({
      type: x.type,
      service_id: x.service_id,
    }));
    expect((await reply(id, { services })).status).toBe(200);
  });

  it('validates type, services, message and the mention replied to', async () => {
    const m = await s.inbound('whatsapp', '3247012', 'hi');
    const id = String(m['id']);
    expect((await reply(id, { services: [] })).status).toBe(400);
    expect((await reply(id, { services: 'not json' })).status).toBe(400);
    expect((await reply(id, { services: [{ type: 'web', service_id: 'web-1001' }] })).status).toBe(400);
    expect((await reply(id, { message: '' })).status).toBe(400);
    expect((await reply('424242')).status).toBe(404);
    expect((await s.api('POST', '/1001/publisher/add', { services: WA, message: 'x' })).status).toBe(400);
    expect((await s.api('POST', '/1001/publisher/add', { type: 'reply', services: WA, message: 'x', status: 'draft' })).status).toBe(400);
    expect((await reply(id, { canned_response_id: '999' })).status).toBe(400);
  });
});

describe('quick replies', () => {
  it('attaches the buttons of a buttons canned response, bumps its usage count and resolves a click', async () => {
    const m = await s.inbound('whatsapp', '3247013', 'menu please');
    const r = await reply(String(m['id']), { message: '', canned_response_id: '501' });
    expect(r.status).toBe(200);
    expect(r.body.response.publisher_mention.message.content).toBe('How can we help you?');
    expect(r.body.response.publisher_mention.buttons.map((b: { title: string }) => b.title)).toEqual([
      'Opening hours',
      'Order status',
      'Talk to an agent',
    ]);
    const canned = await s.api('GET', '/1001/settings/canned_responses', { version: V });
    const menu = canned.body.response.data.find((c: { name: string }) => c.name === 'Main menu');
    expect(menu).toMatchObject({ type: 'buttons', usage_count: 1 });
    expect(menu.data.buttons.map((b: { id: string }) => b.id)).toEqual(['b1', 'b2', 'b3']);

    const byTitle = await s.inbound('whatsapp', '3247013', 'I pick this', { clicked_button: 'order status' });
    expect(byTitle['clicked_buttons']).toEqual([{ id: 'b2', title: 'Order status', payload: 'order_status' }]);
    expect((byTitle['message'] as { content: string }).content).toBe('I pick this');
    const byId = await s.control('POST', '/_sim/inbound', { channel: 'whatsapp', author: { id: '3247013' }, clicked_button: 'b3' });
    expect(byId.body.clicked_buttons[0].title).toBe('Talk to an agent');
    expect(byId.body.message.content).toBe('Talk to an agent');
    const other = await s.control('POST', '/_sim/inbound', { channel: 'whatsapp', author: { id: '3247099' }, clicked_button: 'b3' });
    expect(other.status).toBe(400);
  });
});

describe('agents in the service tool', () => {
  it('adds a reply action to the latest mention and publishes the message', async () => {
    await s.inbound('web', 'visitor1', 'first');
    const latest = await s.inbound('web', 'visitor1', 'second');
    const r = await s.control('POST', '/_sim/agent/reply', { channel: 'web', service_id: 'visitor1', text: 'Agent here' });
    expect(r.status).toBe(200);
    const m = await s.api('GET', `/1001/inbox/mention/2001/${String(latest['id'])}`, { version: V });
    expect(m.body.response.actions).toEqual([{ type: 'reply', user_id: 'u2', date: { added: expect.any(Number) } }]);
    const out = await s.control('GET', '/_sim/outbound?after=0');
    expect(out.body.at(-1)).toMatchObject({ author: 'agent', message: 'Agent here', user_id: 'u2', status: 'posted' });
    const pm = await s.api('GET', `/1001/publisher/mention/${String(r.body.publisher_mention_id)}`, { version: V });
    expect(pm.body.response.in_reply_to.id).toBe(latest['id']);
    expect((await s.control('POST', '/_sim/agent/reply', { channel: 'web', service_id: 'nobody', text: 'x' })).status).toBe(404);
  });

  it('resolves the customer open mentions', async () => {
    const r = await s.control('POST', '/_sim/agent/resolve', { channel: 'web', service_id: 'visitor1' });
    expect(r.body).toEqual({ resolved: 2 });
    const done = await s.api('GET', '/1001/inbox/mentions', { version: V, filter: 'source:web AND status:alldone' });
    expect(done.body.response.count).toBe(2);
  });
});

describe('scheduled publishing', () => {
  it('publishes a direct reply with a future date_publish once its time has come', async () => {
    const m = await s.inbound('whatsapp', '3247014', 'later please');
    const now = Math.floor(Date.now() / 1000);
    const later = new Date((now + 3600) * 1000).toISOString();
    const r = await reply(String(m['id']), { date_publish: later, message: 'Scheduled hello' });
    expect(r.body.response.publisher_mention.status).toBe('scheduled');
    expect(r.body.response.messages[0].status).toBe('queued');
    const managed = async () =>
      (await s.api('GET', '/1001/inbox/mentions', { version: V, limit: '100' })).body.response.data.filter(
        (x: { author: { managed: boolean }; message: { content: string } }) => x.author.managed && x.message.content === 'Scheduled hello',
      ).length;
    expect(await managed()).toBe(0);
    await s.control('POST', '/_sim/clock', { now: now + 3601 });
    expect(await managed()).toBe(1);
    const pm = await s.api('GET', `/1001/publisher/mention/${r.body.response.publisher_mention.id}`);
    expect(pm.body.response.status).toBe('posted');
    await s.control('POST', '/_sim/clock', {});
  });
});

describe('publisher mention', () => {
  it('adds notes and tags, publishes a draft on status posted, and deletes', async () => {
    const draft = await s.api('POST', '/1001/publisher/add', { version: V, type: 'post', services: WA, message: 'Draft', status: 'draft' });
    const id = draft.body.response.publisher_mention.id;
    const url = `/1001/publisher/mention/${id}`;
    const noted = await s.api('POST', url, { version: V, updates: { actions: [{ type: 'note', extra: 'check' }], tags: ['promo'] } });
    expect(noted.body.response.actions[0]).toMatchObject({ type: 'note', extra: 'check' });
    expect(noted.body.response.tags).toEqual(['promo']);
    expect((await s.api('POST', url, { version: V, updates: { body: 'x' } })).status).toBe(400);
    const posted = await s.api('POST', url, { version: V, updates: { status: 'posted' } });
    expect(posted.body.response.status).toBe('posted');
    expect((await s.api('DELETE', url, { options: { comment: 'bye' } })).body.response).toBe(true);
    expect((await s.api('GET', url)).status).toBe(404);
  });
});
