import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, MalformedResponseError } from '../../../src/engage/index.js';
import { testClient } from '../helpers/test-client.js';

let server: Server | undefined;
const open = new Set<ServerResponse>();
afterEach(async () => {
  for (const res of open) res.destroy();
  open.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback API whose every answer is produced by `answer`. */
async function startApi(answer: (res: ServerResponse) => void): Promise<{ baseUrl: string; requests: () => number }> {
  let count = 0;
  server = createServer((req, res) => {
    count += 1;
    open.add(res);
    req.resume();
    answer(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

const ref = { topicId: 2, id: 1 };

describe('the total deadline, the answer size limit and aborting at shutdown', () => {
  it('ends a request whose answer drips in forever at its total deadline', async () => {
    const api = await startApi((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"meta":{"code":200},"response":{"id":1,"topic_id":2,"pad":"');
      // A byte well inside every idle timeout, for ever: only a total deadline ends it.
      const drip = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(drip));
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { timeouts: { requestMs: 400 }, retry: { maxAttempts: 1 } });
    const failure = await client.mentions.get(ref).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as ConnectionError).reason).toBe('timeout');
    await client.close();
  });

  it('puts an answer sent in many chunks back together, a character split between two chunks included', async () => {
    const body = Buffer.from(JSON.stringify({ meta: { code: 200 }, response: { id: 1, topic_id: 2, message: { content: 'Où ça ? 😀' } } }));
    const api = await startApi((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      // One byte per chunk: every multi-byte character arrives cut in pieces.
      for (let i = 0; i < body.length; i += 1) res.write(body.subarray(i, i + 1));
      res.end();
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { retry: { maxAttempts: 1 } });
    const mention = await client.mentions.get(ref);
    expect(mention.message?.content).toBe('Où ça ? 😀');
    await client.close();
  });

  it('refuses an answer larger than the limit without reading it all', async () => {
    const api = await startApi((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ meta: { code: 200 }, response: { id: 1, topic_id: 2, pad: 'x'.repeat(200_000) } }));
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { maxResponseBytes: 10_000, retry: { maxAttempts: 1 } });
    const failure = await client.mentions.get(ref).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MalformedResponseError);
    expect(String((failure as Error).message)).not.toContain('xxxx');
    await client.close();
  });

  it('refuses a streamed answer that grows past the limit (no content-length)', async () => {
    const api = await startApi((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.write('{"meta":{"code":200},"response":{"id":1,"topic_id":2,"pad":"');
      for (let i = 0; i < 50; i += 1) res.write('x'.repeat(1000));
      res.end('"}}');
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { maxResponseBytes: 10_000, retry: { maxAttempts: 1 } });
    await expect(client.mentions.get(ref)).rejects.toBeInstanceOf(MalformedResponseError);
    await client.close();
  });

  it('cuts off a held request when the client is told to stop, and retries nothing after', async () => {
    const api = await startApi(() => {
      // never answers
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { timeouts: { requestMs: 300_000 } });
    const pending = client.mentions.get(ref).catch((e: unknown) => e);
    const deadline = Date.now() + 5000;
    while (api.requests() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    client.abortInFlight();
    const failure = await pending;
    expect(failure).toBeInstanceOf(ConnectionError);
    expect((failure as ConnectionError).reason).toBe('aborted');
    expect(api.requests()).toBe(1);
    await expect(client.mentions.get(ref)).rejects.toBeInstanceOf(ConnectionError);
    expect(api.requests()).toBe(1);
    await client.close();
  });

  it('cuts off every request in flight when the client is told to stop, whether it waits for headers or body', async () => {
    let seen = 0;
    const api = await startApi((res) => {
      seen += 1;
      if (seen % 2 === 0) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"meta":{"code":200},"response":{"id":1,"topic_id":2,"pad":"'); // and never finishes
    });
    const { client } = testClient({ baseUrl: api.baseUrl } as never, { timeouts: { requestMs: 300_000 } });
    const pending = [1, 2, 3, 4].map(() => client.mentions.get(ref).catch((e: unknown) => e));
    const deadline = Date.now() + 5000;
    while (api.requests() < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    client.abortInFlight();
    const failures = await Promise.all(pending);
    expect(failures.map((f) => (f instanceof ConnectionError ? f.reason : f))).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
    await client.close();
  });
});
