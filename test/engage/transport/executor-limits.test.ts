import { waitFor } from '../../support/wait-for.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError, MalformedResponseError } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const item = { owner: 'agents', date: { updated: null } };

describe('request classes, timeouts and malformed answers', () => {
  it('queues reads beyond their limit while a handover still goes through', async () => {
    const { client } = testClient(server, { rateLimit: { concurrency: { read: 1, handover: 1 } } });
    let letGo = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    server.script({ ...ok({ id: 1, topic_id: 2 }), hold: held });
    const first = client.mentions.get({ topicId: 2, id: 1 });
    await waitFor('the first read to arrive', () => server.requests.length === 1, 5000);
    server.script(ok(item), ok({ id: 3, topic_id: 2 }));
    const second = client.mentions.get({ topicId: 2, id: 3 });
    await waitFor('the second read to queue', () => client.stats().queued.read === 1, 5000);
    const handover = await client.handover.get({ service: 'web', serviceId: 'v1' });
    expect(handover.owner).toBe('agents');
    expect(server.requests.map((r) => r.url.split('?')[0])).toEqual(['/1001/inbox/mention/2/1', '/1001/inbox/handover/web/v1']);
    letGo();
    expect((await first).id).toBe('1');
    expect((await second).id).toBe('3');
  });

  it('has every call its classes let go in flight at once: the connection pool is never the smaller limit', async () => {
    const { client } = testClient(server, { rateLimit: { concurrency: { read: 20, write: 1, handover: 1 } } });
    let letGo = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    server.fallback = () => ({ ...ok({ id: 1, topic_id: 2 }), hold: held });
    const reads = Array.from({ length: 20 }, (_, i) => client.mentions.get({ topicId: 2, id: i + 1 }));
    await waitFor('20 reads in flight', () => server.requests.length === 20, 5000).finally(letGo);
    await Promise.all(reads);
  });

  it('turns an answer that never comes into a timeout ConnectionError', async () => {
    const { client } = testClient(server, { timeouts: { requestMs: 50 }, retry: { maxAttempts: 1 } });
    server.script({ ...ok(true), hold: new Promise(() => undefined) });
    const error = await client.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).reason).toBe('timeout');
    expect((error as ConnectionError).code).toBe('timeout');
  });

  it('asks a read again when its 200 answer was cut short (not JSON), and returns the whole answer', async () => {
    const { client } = testClient(server);
    server.script({ status: 200, body: '{"meta":{"code":200},"response":{"id":' }, ok({ id: 1, topic_id: 2 }));
    expect((await client.mentions.get({ topicId: 2, id: 1 })).id).toBe('1');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a read cut short every time with MalformedResponseError, after the configured attempts', async () => {
    const { client } = testClient(server, { retry: { maxAttempts: 3 } });
    server.fallback = () => ({ status: 200, body: '{"meta":{"code":200},"response":{"id":' });
    await expect(client.topics.list()).rejects.toBeInstanceOf(MalformedResponseError);
    expect(server.requests).toHaveLength(3);
  });

  it('never asks a publish again when its 200 answer was cut short: the 200 says it is out (issue 26)', async () => {
    const { client } = testClient(server);
    server.script({ status: 200, body: '{"meta":{"code":200},"response":{"id":' });
    const sent = client.publisher.add({ type: 'reply', services: [{ type: 'whatsapp', service_id: '1' }], message: 'hi', status: '' });
    await expect(sent).resolves.toMatchObject({ messages: [], publisher_mention: null, unread: expect.any(String) });
    expect(server.requests).toHaveLength(1);
  });

  it('does not ask a read again when its 200 body is JSON but no envelope (a JSON error page): it is not cut short', async () => {
    const { client } = testClient(server);
    server.script({ status: 200, body: { foo: 1 } });
    await expect(client.topics.list()).rejects.toBeInstanceOf(MalformedResponseError);
    expect(server.requests).toHaveLength(1);
  });

  it('does not ask again when a readable answer has the wrong shape: it would come back the same', async () => {
    const { client } = testClient(server);
    server.script(ok({ id: { nested: true } }));
    await expect(client.mentions.get({ topicId: 2, id: 1 })).rejects.toBeInstanceOf(MalformedResponseError);
    expect(server.requests).toHaveLength(1);
  });

  it('treats an HTTP 200 envelope whose meta.code says 503 as a server fault and retries it', async () => {
    const { client } = testClient(server);
    server.script({ status: 200, body: { meta: { code: 503, error_type: 'server_error', error_message: 'busy' } } }, ok([]));
    await client.topics.list();
    expect(server.requests).toHaveLength(2);
  });

  it('returns the JSON text unparsed through raw', async () => {
    const { client } = testClient(server);
    server.script(ok({ id: 1 }));
    const answer = await client.raw({
      method: 'GET',
      template: '/{account_id}/inbox/mention/{topic_id}/{id}',
      pathValues: { topic_id: 2, id: 1 },
    });
    expect(JSON.parse(answer.body)).toEqual({ meta: { code: 200 }, response: { id: 1 } });
    expect(server.requests[0]!.url.split('?')[0]).toBe('/1001/inbox/mention/2/1');
  });
});
