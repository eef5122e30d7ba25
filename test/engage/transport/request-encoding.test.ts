import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient, TOKEN } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

describe('request encoding', () => {
  it('sends GET parameters and the version in the query and the token only as a Bearer header', async () => {
    const { client } = testClient(server);
    server.script(ok({ data: [], paging: { next_url: null } }));
    await client.mentions.list({ topicIds: [2001, '2002'], limit: 10, sort: 'dateadd:asc', filter: 'status:new' });
    const req = server.requests[0]!;
    expect(req.method).toBe('GET');
    expect(req.url.startsWith('/1001/inbox/mentions?')).toBe(true);
    expect(req.params.get('topic_ids')).toBe('2001,2002');
    expect(req.params.get('limit')).toBe('10');
    expect(req.params.get('sort')).toBe('dateadd:asc');
    expect(req.params.get('filter')).toBe('status:new');
    expect(req.params.get('version')).toBe('20210601');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.url).not.toContain(TOKEN);
    expect(req.url).not.toContain('access_token');
  });

  it('sends POST parameters as a form body with JSON text fields and booleans as "true"/"false"', async () => {
    const { client } = testClient(server, { version: '20200101' });
    server.script(ok({ id: 9001, topic_id: 2001, tags: ['a'] }));
    await client.mentions.update(
      { topicId: 2001, id: 9001 },
      { tags: ['a'], message: { sentiment: 'positive' } },
      { options: { tags_edit_mode: 'add', hide_on_service: false }, listFilter: 'status:new' },
    );
    const req = server.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/1001/inbox/mention/2001/9001');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(JSON.parse(req.params.get('updates')!)).toEqual({ tags: ['a'], message: { sentiment: 'positive' } });
    expect(JSON.parse(req.params.get('options')!)).toEqual({ tags_edit_mode: 'add', hide_on_service: false });
    expect(req.params.get('list_filter')).toBe('status:new');
    expect(req.params.get('version')).toBe('20200101');
  });

  it('sends DELETE parameters in the query, never in a body (issue 26: some services read only the query)', async () => {
    const { client } = testClient(server);
    server.script(ok(true));
    const deleted = await client.mentions.delete({ topicId: 2001, id: 9001 }, { options: { block_author_on_service: true } });
    const req = server.requests[0]!;
    expect(deleted).toBe(true);
    expect(req.method).toBe('DELETE');
    expect(JSON.parse(req.params.get('options')!)).toEqual({ block_author_on_service: true });
    expect(req.params.get('version')).toBe('20210601');
    expect(req.body).toBe('');
    expect(new URL(req.url, 'http://x').searchParams.get('options')).not.toBeNull();
  });

  it('keeps the base URL path before every endpoint path, with one slash between them', async () => {
    for (const base of [`${server.baseUrl}/engage`, `${server.baseUrl}/engage/`, `${server.baseUrl}/`]) {
      const { client } = testClient({ ...server, baseUrl: base });
      server.script(ok({ data: [], paging: { next_url: null } }), ok(true));
      await client.mentions.list();
      await client.mentions.delete({ topicId: 2001, id: 9 });
    }
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /engage/1001/inbox/mentions?version=20210601',
      'DELETE /engage/1001/inbox/mention/2001/9?version=20210601',
      'GET /engage/1001/inbox/mentions?version=20210601',
      'DELETE /engage/1001/inbox/mention/2001/9?version=20210601',
      'GET /1001/inbox/mentions?version=20210601',
      'DELETE /1001/inbox/mention/2001/9?version=20210601',
    ]);
  });

  it('encodes ids so that they cannot change the path', async () => {
    const { client } = testClient(server);
    server.script(ok({ id: 'x', socialprofiles: [] }));
    await client.contacts.get({ service: 'twitter', serviceId: '../a/b?c' });
    expect(server.requests[0]!.url.split('?')[0]).toBe('/1001/inbox/contact/twitter/..%2Fa%2Fb%3Fc');
  });

  it('logs meta.messages warnings and still returns the item', async () => {
    const { client, logger } = testClient(server);
    server.script(ok({ id: 1, topic_id: 2 }, { code: 200, messages: [{ type: 'message', text: 'unknown parameter foo' }] }));
    const mention = await client.mentions.get({ topicId: 2, id: 1 });
    expect(mention.id).toBe('1');
    const warning = logger.lines.find((l) => l.level === 'warn');
    expect(warning?.obj).toMatchObject({ endpoint: '/{account_id}/inbox/mention/{topic_id}/{id}', messages: ['unknown parameter foo'] });
  });

  it('returns the XML text as is when format=xml is asked through raw', async () => {
    const { client } = testClient(server);
    server.script({ status: 200, headers: { 'content-type': 'application/xml' }, body: '<response><id>1</id></response>' });
    const answer = await client.raw({ method: 'GET', template: '/{account_id}/settings/topics', format: 'xml' });
    expect(answer.body).toBe('<response><id>1</id></response>');
    expect(server.requests[0]!.params.get('format')).toBe('xml');
    expect(server.requests[0]!.headers.accept).toBe('application/xml');
  });

  it('reports the hook for every attempt with the endpoint template, not the ids', async () => {
    const events: unknown[] = [];
    const { client } = testClient(server, { onRequest: (e) => events.push(e) });
    server.script(ok({ id: 1, topic_id: 2 }));
    await client.mentions.get({ topicId: 2, id: 1 });
    expect(events).toEqual([
      expect.objectContaining({
        method: 'GET',
        endpoint: '/{account_id}/inbox/mention/{topic_id}/{id}',
        status: 200,
        attempt: 1,
        outcome: 'ok',
      }),
    ]);
  });

  it('refuses a plain-HTTP base URL for a host that is not loopback', () => {
    expect(() => testClient({ ...server, baseUrl: 'http://api.engagor.com' })).toThrow(/https/);
  });

  it('refuses an empty token and a malformed version before any request', () => {
    expect(() => testClient(server, { accessToken: '' })).toThrow(/token/);
    expect(() => testClient(server, { version: '2021-06-01' })).toThrow(/version/);
  });
});
