import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  createEngageClient,
  InsufficientScopeError,
  InvalidParameterError,
  MalformedResponseError,
  NotFoundError,
  RateLimitError,
  RateLimitRegistry,
  readOwnership,
  ServerError,
  type EngageClient,
  type EngageLogger,
} from '../../src/engage/index.js';
import { startSim, type TestSim } from './sim-helpers.js';

// The real client (src/engage) against the simulator over a socket: both are written from the
// conventions by different hands, so this is where a disagreement shows up.
let s: TestSim;
let client: EngageClient;
const warnings: unknown[] = [];
const logger: EngageLogger = {
  debug: () => undefined,
  info: () => undefined,
  error: () => undefined,
  warn: (obj: object) => {
    warnings.push(obj);
  },
};

const make = (opts: { token?: string; version?: string; timeoutMs?: number } = {}) =>
  createEngageClient({
    baseUrl: s.url,
    accountId: '1001',
    accessToken: opts.token ?? 'sim-token',
    logger,
    ...(opts.version ? { version: opts.version } : {}),
    retry: { maxAttempts: 1 },
    rateLimit: { registry: new RateLimitRegistry() },
    ...(opts.timeoutMs ? { timeouts: { requestMs: opts.timeoutMs, connectMs: opts.timeoutMs } } : {}),
  });

beforeAll(async () => {
  s = await startSim();
  client = make();
  for (let i = 0; i < 23; i++) await s.inbound(i % 2 ? 'whatsapp' : 'web', `k${i}`, `contract ${i}`);
});
afterAll(async () => {
  await client.close();
  await s.close();
});
const fault = (faults: Record<string, unknown>) => s.control('POST', '/_sim/faults', faults);

describe('contract: the real client against the simulator', () => {
  it('follows next_url through every page of the mentions list exactly once', async () => {
    const ids: string[] = [];
    for await (const page of client.mentions.listPages({ limit: 5, sort: 'dateadd:asc', topicIds: [2001] })) {
      ids.push(...page.data.map((m) => String(m.id)));
    }
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
  });

  it('parses mentions with the filter and the version defaults it sends', async () => {
    const page = await client.mentions.list({ filter: 'source:whatsapp AND status:new', limit: 100 });
    expect(page.count).toBe(11);
    const one = await client.mentions.get({ topicId: 2001, id: page.data[0]!.id });
    expect(one.unique_id).toBe(`2001_${String(one.id)}`);
  });

  it('keeps tags at its default version; under an older one refuses a tag-less update and keeps tags sent along', async () => {
    const ref = { service: 'whatsapp', serviceId: 'k1' };
    await client.contacts.update(ref, { tags: ['vip'] }, { topicIds: [2001] });
    const kept = await client.contacts.update(ref, { company: 'Acme' }, { topicIds: [2001] });
    expect(kept.tags).toEqual(['vip']);
    const old = make({ version: '20200101' });
    await expect(old.contacts.update(ref, { company: 'Acme' }, { topicIds: [2001] })).rejects.toThrow(/clears the contact's tags/);
    const withTags = await old.contacts.update(ref, { company: 'Acme', tags: ['vip'] }, { topicIds: [2001] });
    expect(withTags.tags).toEqual(['vip']);
    await old.close();
  });

  it('hands a contact over and back, reading "never handed over" first', async () => {
    const ref = { service: 'web', serviceId: 'k0' };
    expect(readOwnership(await client.handover.get(ref))).toMatchObject({ owner: 'agents', neverHandedOver: true });
    expect(readOwnership(await client.handover.toApplication(ref)).owner).toBe('application');
    await s.control('POST', '/_sim/handover', { channel: 'web', service_id: 'k0', owner: 'agents' });
    expect(readOwnership(await client.handover.get(ref))).toMatchObject({ owner: 'agents', neverHandedOver: false });
  });

  it('publishes a quick-reply reply the simulator records, and reads in_reply_to back', async () => {
    const page = await client.mentions.list({ filter: 'source:whatsapp', limit: 1 });
    const m = page.data[0]!;
    const result = await client.publisher.add({
      type: 'reply',
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
      status: '',
      topicId: m.topic_id,
      mentionId: m.id,
      cannedResponseId: '501',
    });
    const pmId = (result.publisher_mention as { id: string | number }).id;
    const pm = await client.publisherMentions.get(pmId);
    expect((pm as { in_reply_to?: { id: unknown } }).in_reply_to?.id).toBe(m.id);
    const out = (await s.control('GET', '/_sim/outbound?after=0')).body;
    expect(out.at(-1).buttons).toHaveLength(3);
  });

  it('gets refusals as the right error classes', async () => {
    const refused = await client.publisher
      .add({ type: 'post', services: [{ type: 'whatsapp', service_id: '3225550100' }], message: 'x', status: '' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidParameterError);
    expect(await client.mentions.get({ topicId: 2001, id: 1 }).catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    await s.control('POST', '/_sim/tokens', { token: 'ro', user_id: 'u1', scopes: ['accounts_read'] });
    const ro = make({ token: 'ro' });
    const scope = await ro.mentions.update({ topicId: 2001, id: 9001 }, { status: 'done' }).catch((e: unknown) => e);
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    await ro.close();
  });

  it('maps injected faults: rate limit, server error, malformed body, reset and timeout', async () => {
    try {
      await fault({ rate_limit: 1 });
      const limited = await client.topics.list().catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(RateLimitError);
      expect((limited as RateLimitError).retryAfterMs).toBe(1000);
      await fault({ server_error: 1 });
      expect(await client.topics.list().catch((e: unknown) => e)).toBeInstanceOf(ServerError);
      await fault({ malformed: 1 });
      expect(await client.topics.list().catch((e: unknown) => e)).toBeInstanceOf(MalformedResponseError);
      await fault({ reset: 1 });
      expect(await client.topics.list().catch((e: unknown) => e)).toBeInstanceOf(ConnectionError);
      await fault({ timeout: 1 });
      const quick = make({ timeoutMs: 300 });
      const timedOut = await quick.topics.list().catch((e: unknown) => e);
      await fault({});
      await quick.close();
      expect(timedOut).toBeInstanceOf(ConnectionError);
      expect((timedOut as ConnectionError).reason).toBe('timeout');
    } finally {
      await fault({});
    }
  });

  it('hears meta.messages warnings as warn log lines', async () => {
    warnings.length = 0;
    const page = await client.mentions.list({ topicIds: [2001], limit: 1 });
    expect(page.data).toHaveLength(1);
    await client.raw({ method: 'GET', template: '/{account_id}/settings/topics', params: { unheard_of: 'x' } });
    expect(JSON.stringify(warnings)).toContain('unheard_of');
  });

  it('reads business hours, users and settings lists the bridge relies on', async () => {
    const created = await client.businessHours.create({
      name: 'Late shift',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 5, start: '1800', end: '2400' }],
    });
    expect(created.periods[0]?.end).toBe('2400');
    const user = await client.users.get('u1');
    expect(typeof user.businesshours_is_active).toBe('boolean');
    const canned = await client.cannedResponses.list();
    expect(canned.data.find((c) => c.type === 'buttons')?.name).toBe('Main menu');
    expect((await client.me.accounts()).map((a) => String(a.id))).toEqual(['1001']);
    expect((await client.tools.sentiment({ text: 'thanks, great' })).sentiment).toBe('positive');
  });
});
