import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, ConnectionError, RateLimitError, RateLimitRegistry, ServerError } from '../../../src/engage/index.js';
import { ok, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { testClient, TOKEN } from '../helpers/test-client.js';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

const mention = { id: 1, topic_id: 2 };
const ref = { topicId: 2, id: 1 };

describe('retries and rate limits (fake clock, no real waiting)', () => {
  it('retries a 503 with backoff and returns the later success', async () => {
    const { client, time } = testClient(server);
    server.script({ status: 503, body: { error: 'server_error' } }, { status: 502, body: 'bad gateway' }, ok(mention));
    const result = await client.mentions.get(ref);
    expect(result.id).toBe('1');
    expect(server.requests).toHaveLength(3);
    expect(time.sleeps).toHaveLength(2);
    expect(time.sleeps[0]!).toBeLessThan(time.sleeps[1]!);
    expect(client.stats()).toMatchObject({ requests: 3, failures: 2, retries: 2 });
  });

  it('gives up after the configured attempts with the last ServerError', async () => {
    const { client } = testClient(server, { retry: { maxAttempts: 3 } });
    server.fallback = () => ({ status: 500, body: { error: 'server_error', error_description: 'boom' } });
    await expect(client.mentions.get(ref)).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });

  it('honours Retry-After on a 429 before trying again', async () => {
    const { client, time } = testClient(server);
    server.script({ status: 429, headers: { 'retry-after': '12' }, body: {} }, ok(mention));
    await client.mentions.get(ref);
    expect(time.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12_000);
    expect(time.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(13_000);
  });

  it('waits until x-ratelimit-reset on a 400 rate_limit_reached', async () => {
    const { client, time } = testClient(server);
    const resetSeconds = Math.floor(time.clock() / 1000) + 20;
    server.script(
      {
        status: 400,
        // The service's own clock, as its Date header says: the reset is measured from it.
        headers: {
          'x-ratelimit-reset': String(resetSeconds),
          'x-ratelimit-remaining': '0',
          date: new Date(time.clock()).toUTCString(),
        },
        body: { error: 'rate_limit_reached' },
      },
      ok(mention),
    );
    await client.mentions.get(ref);
    expect(time.clock()).toBeGreaterThanOrEqual(resetSeconds * 1000);
    expect(server.requests).toHaveLength(2);
  });

  it('holds every client of the same user back after one of them is rate limited', async () => {
    const registry = new RateLimitRegistry();
    const first = testClient(server, { rateLimit: { registry, userKey: 'user-7' }, retry: { maxAttempts: 1 } });
    const { time } = first;
    const second = testClient(server, {
      rateLimit: { registry, userKey: 'user-7' },
      accessToken: 'other-token-of-user-7',
      clock: time.clock,
      sleep: time.sleep,
    });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: {} }, ok(mention));
    await expect(first.client.mentions.get(ref)).rejects.toBeInstanceOf(RateLimitError);
    const blockedAt = time.clock();
    await second.client.mentions.get(ref);
    expect(time.clock() - blockedAt).toBeGreaterThanOrEqual(30_000);
    expect(server.requests[1]!.headers.authorization).toBe('Bearer other-token-of-user-7');
  });

  it('keeps users apart: another user is not held back', async () => {
    const registry = new RateLimitRegistry();
    const first = testClient(server, { rateLimit: { registry, userKey: 'user-1' }, retry: { maxAttempts: 1 } });
    const other = testClient(server, { rateLimit: { registry, userKey: 'user-2' } });
    server.script({ status: 429, headers: { 'retry-after': '30' }, body: {} }, ok(mention));
    await expect(first.client.mentions.get(ref)).rejects.toBeInstanceOf(RateLimitError);
    await other.client.mentions.get(ref);
    expect(other.time.sleeps).toEqual([]);
  });

  it('records the last known remaining budget', async () => {
    const { client } = testClient(server);
    server.script({ ...ok(mention), headers: { 'x-ratelimit-remaining': '41', 'x-ratelimit-reset': '1700000100' } });
    await client.mentions.get(ref);
    expect(client.stats().budget).toMatchObject({ remaining: 41, resetAtMs: 1_700_000_100_000 });
  });

  it('stops at once on a revoked token', async () => {
    const { client } = testClient(server);
    server.fallback = () => ({ status: 401, body: { error: 'invalid_token', error_description: 'The access token provided is invalid.' } });
    const error = await client.mentions.get(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).humanMessage).toBe('the user changed their password or revoked access: re-authorise');
    expect(server.requests).toHaveLength(1);
  });

  it('never retries publisher/add automatically', async () => {
    const { client } = testClient(server);
    server.script({ status: 503, body: { error: 'server_error' } });
    await expect(
      client.publisher.add({ type: 'reply', services: [{ type: 'whatsapp', service_id: '1' }], message: 'hi', status: '' }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a connection reset of a read and maps a lasting one to ConnectionError', async () => {
    const { client } = testClient(server, { retry: { maxAttempts: 2 } });
    server.script({ reset: true }, ok(mention));
    expect((await client.mentions.get(ref)).id).toBe('1');
    server.script({ reset: true }, { reset: true });
    const error = await client.mentions.get(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).reason).toBe('reset');
  });

  it('maps a refused connection to ConnectionError', async () => {
    const closed = await startScriptedServer();
    await closed.close();
    const { client } = testClient(closed, { retry: { maxAttempts: 1 } });
    const error = await client.mentions.get(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).reason).toBe('refused');
  });

  it('keeps the token out of errors and log lines, even when the service echoes it', async () => {
    const { client, logger } = testClient(server, { retry: { maxAttempts: 2 } });
    server.script(
      { status: 500, body: { error: 'server_error', error_description: `bad token ${TOKEN}` } },
      { status: 400, body: { error: 'invalid_parameter', error_description: `access_token=${TOKEN} refused` } },
    );
    const error = (await client.mentions.get(ref).catch((e: unknown) => e)) as Error;
    const everything = JSON.stringify({ error, message: error.message, fields: { ...error }, lines: logger.lines });
    expect(everything).not.toContain(TOKEN);
    expect(error.message).toContain('[redacted]');
  });
});
