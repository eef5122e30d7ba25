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

const services = [{ type: 'whatsapp', service_id: '32470000001' }];

describe('publisher add', () => {
  it('asks for the services to reply with through GET publisher/add', async () => {
    server.script(ok({ profiles: [], services: [{ type: 'whatsapp', service_id: 555, name: 'Shop' }] }));
    const answer = await client.publisher.services({ type: 'reply', topicId: 2001, mentionId: 9001 });
    const req = server.requests[0]!;
    expect(req.url.split('?')[0]).toBe('/1001/publisher/add');
    expect(req.params.get('type')).toBe('reply');
    expect(req.params.get('topic_id')).toBe('2001');
    expect(req.params.get('mention_id')).toBe('9001');
    expect(answer.services[0]?.service_id).toBe('555');
  });

  it('posts a reply as a form with services as JSON text and parses the created items', async () => {
    server.script(
      ok({
        messages: [{ id: 77, service: 'whatsapp', service_id: '32470000001', status: 'sent' }],
        publisher_mention: { id: 88, status: 'sent', tags: [], actions: [], in_reply_to: { id: 9001, topic_id: 2001 } },
      }),
    );
    const result = await client.publisher.add({
      type: 'reply',
      services,
      message: 'Your order ships today',
      status: '',
      topicId: 2001,
      mentionId: '9001',
      cannedResponseId: 5,
      datePublish: new Date(Date.UTC(2024, 0, 1)),
    });
    const p = server.requests[0]!.params;
    expect(server.requests[0]!.method).toBe('POST');
    expect(p.get('type')).toBe('reply');
    expect(JSON.parse(p.get('services')!)).toEqual(services);
    expect(p.get('message')).toBe('Your order ships today');
    expect(p.get('status')).toBe('');
    expect(p.get('topic_id')).toBe('2001');
    expect(p.get('mention_id')).toBe('9001');
    expect(p.get('canned_response_id')).toBe('5');
    expect(p.get('date_publish')).toBe('2024-01-01T00:00:00.000Z');
    expect(result.messages[0]?.id).toBe('77');
    expect(result.publisher_mention?.in_reply_to?.id).toBe('9001');
  });

  it('returns the published reply even when the echo of the customer mention in its answer has odd fields', async () => {
    // in_reply_to repeats the customer's mention; a field of it we never read must not turn a reply that went out
    // into a failure (which would be re-checked, or reported, as if nothing was published).
    server.script(
      ok({
        messages: [{ id: 77, service: 'whatsapp', service_id: '32470000001', status: 'sent' }],
        publisher_mention: {
          id: 88,
          user_id: 'u1',
          in_reply_to: { id: 9001, topic_id: 2001, author: 'not an object', tags: 5, date: { added: 'yesterday' } },
        },
      }),
    );
    const result = await client.publisher.add({ type: 'reply', services, message: 'Hi', status: '', topicId: 2001, mentionId: 9001 });
    expect(result.messages[0]?.id).toBe('77');
    expect(result.publisher_mention?.id).toBe('88');
    expect(result.publisher_mention?.in_reply_to?.id).toBe('9001');
    expect((result.publisher_mention as Record<string, unknown>).user_id).toBe('u1');
    // Only which mention it answers is kept of the echo: its other fields are neither checked nor carried over.
    expect(result.publisher_mention?.in_reply_to).toEqual({ id: '9001', topic_id: '2001' });
  });

  it('reads the publisher mention of the answer for its id, user and target only: odd values elsewhere in it are no matter', async () => {
    server.script(
      ok({
        messages: [{ id: 77 }],
        publisher_mention: { id: 88, user_id: 'u1', status: 5, tags: 'x', services: 'none', date: 'soon', actions: {} },
      }),
    );
    const result = await client.publisher.add({ type: 'reply', services, message: 'Hi', status: '', topicId: 2001, mentionId: 9001 });
    expect(result.unread).toBeUndefined();
    expect(result.publisher_mention).toEqual({ id: '88', user_id: 'u1' });
  });

  it('takes a 2xx whose messages cannot be read as sent, keeping the publisher mention it names (issue 26)', async () => {
    server.script(ok({ messages: [{ service: 'whatsapp' }], publisher_mention: { id: 88 } }));
    await expect(
      client.publisher.add({ type: 'reply', services, message: 'Hi', status: '', topicId: 2001, mentionId: 9001 }),
    ).resolves.toMatchObject({ messages: [], publisher_mention: { id: '88' }, unread: expect.any(String) });
  });

  it('refuses a post without message, canned response or media', async () => {
    await expect(client.publisher.add({ type: 'reply', services })).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
  });

  it('accepts a canned response or media instead of a message', async () => {
    server.script(ok({ messages: [] }), ok({ messages: [] }));
    await client.publisher.add({ type: 'reply', services, cannedResponseId: 'cr1' });
    await client.publisher.add({ type: 'post', services, media: [1, 2] });
    expect(JSON.parse(server.requests[1]!.params.get('media')!)).toEqual(['1', '2']);
  });

  it('refuses an unknown type, an unknown status, no services and a bad email', async () => {
    const bad = [
      { type: 'shout' as never, services, message: 'x' },
      { type: 'reply' as const, services, message: 'x', status: 'now' as never },
      { type: 'reply' as const, services: [], message: 'x' },
      { type: 'reply' as const, services, message: 'x', to: [{ id: 'not-an-email' }] },
    ];
    for (const input of bad) await expect(client.publisher.add(input)).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('publisher mentions', () => {
  it('gets, updates, deletes and lists publisher mentions', async () => {
    server.script(
      ok({ id: 88, status: 'posted', in_reply_to: { id: 9001, topic_id: 2001 } }),
      ok({ id: 88, tags: ['x'] }),
      ok(true),
      ok({ data: [{ id: 88 }], paging: { next_url: null } }),
    );
    const got = await client.publisherMentions.get(88);
    await client.publisherMentions.update(88, { actions: [{ type: 'note', extra: 'checked' }] }, { options: { tags_edit_mode: 'add' } });
    const deleted = await client.publisherMentions.delete(88, { options: { comment: 'dup', sendMail: false } });
    const list = await client.publisherMentions.list({ status: 'posted', dateFrom: '2024-01-01T00:00:00Z' });
    expect(got.in_reply_to?.id).toBe('9001');
    expect(deleted).toBe(true);
    expect(list.data[0]?.id).toBe('88');
    expect(server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'GET /1001/publisher/mention/88',
      'POST /1001/publisher/mention/88',
      'DELETE /1001/publisher/mention/88',
      'GET /1001/publisher/mentions',
    ]);
    expect(JSON.parse(server.requests[1]!.params.get('updates')!)).toEqual({ actions: [{ type: 'note', extra: 'checked' }] });
    expect(JSON.parse(server.requests[2]!.params.get('options')!)).toEqual({ comment: 'dup', sendMail: false });
    expect(server.requests[3]!.params.get('status')).toBe('posted');
    expect(server.requests[3]!.params.get('date_from')).toBe('2024-01-01T00:00:00Z');
  });

  it('keeps the readable publisher mentions of a page and names the one that cannot be read', async () => {
    server.script(
      ok({
        data: [{ id: 87, message: { content: 'a' } }, { id: 88, date: { added: 'yesterday' } }, { status: 'posted' }, { id: 89 }],
        paging: { next_url: null },
      }),
    );
    const list = await client.publisherMentions.list({ status: 'posted' });
    expect(list.data.map((p) => p.id)).toEqual(['87', '89']);
    expect(list.invalid.map((i) => i.id)).toEqual(['88', undefined]);
    expect(list.invalid[0]?.problem).toMatch(/date\.added/);
  });

  it('refuses an unknown delete option', async () => {
    await expect(client.publisherMentions.delete(1, { options: { purge: true } as never })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.publisherMentions.delete(1, { options: { reassignAuthor: 'yes' } as never })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    expect(server.requests).toHaveLength(0);
  });
});
