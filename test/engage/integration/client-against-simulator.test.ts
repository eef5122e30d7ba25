import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  createEngageClient,
  InvalidParameterError,
  RateLimitRegistry,
  readOwnership,
  type EngageClient,
} from '../../../src/engage/index.js';
import { createSimulator, DEFAULT_ACCOUNT_ID, DEFAULT_TOKEN, type RunningSimulator } from '../../../src/simulator/index.js';

// The client and the simulator are written from the same conventions by different people: this checks
// that they agree over a real socket.
let running: RunningSimulator;
let client: EngageClient;

const control = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(`${running.url}/_sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};

const newClient = (token = DEFAULT_TOKEN) =>
  createEngageClient({
    baseUrl: running.url,
    accountId: DEFAULT_ACCOUNT_ID,
    accessToken: token,
    retry: { maxAttempts: 1 },
    rateLimit: { registry: new RateLimitRegistry() },
  });

beforeAll(async () => {
  running = await createSimulator().listen({ port: 0, host: '127.0.0.1' });
  client = newClient();
});
afterAll(async () => {
  await client.close();
  await running.close();
});

describe('the client against the simulator', () => {
  it('sees an inbound message in the mentions list and reads it back', async () => {
    await control('inbound', { channel: 'whatsapp', author: { id: '32470000009', name: 'Ann' }, text: 'Where is my order?' });
    const page = await client.mentions.list({ sort: 'dateadd:desc', limit: 10 });
    const mention = page.data.find((m) => m.author?.id === '32470000009');
    expect(mention?.message?.content).toBe('Where is my order?');
    const again = await client.mentions.get({ topicId: mention!.topic_id, id: mention!.id });
    expect(again.id).toBe(mention!.id);
  });

  it('moves ownership of a contact through the handover endpoints', async () => {
    const ref = { service: 'whatsapp', serviceId: '32470000009' };
    const before = readOwnership(await client.handover.get(ref));
    expect(before.owner).toBe('agents');
    expect(readOwnership(await client.handover.toApplication(ref)).owner).toBe('application');
    const taken = readOwnership(await client.handover.toAgents(ref));
    expect(taken).toMatchObject({ owner: 'agents', neverHandedOver: false });
  });

  it('fetches a chat contact by service with topic_ids', async () => {
    const topics = await client.topics.list();
    const topicIds = topics.data.map((t) => t.id);
    const contact = await client.contacts.get({ service: 'whatsapp', serviceId: '32470000009' }, { topicIds });
    expect(contact.socialprofiles?.some((p) => p.service_id === '32470000009')).toBe(true);
  });

  it('replies to a mention with a canned response of quick replies', async () => {
    const canned = await client.cannedResponses.list();
    const menu = canned.data.find((c) => c.type === 'buttons');
    const page = await client.mentions.list({ limit: 10, sort: 'dateadd:desc' });
    const mention = page.data.find((m) => m.author?.id === '32470000009')!;
    const result = await client.publisher.add({
      type: 'reply',
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
      message: 'Pick one',
      status: '',
      topicId: mention.topic_id,
      mentionId: mention.id,
      cannedResponseId: menu!.id,
    });
    expect(result.messages.length).toBeGreaterThan(0);
  });

  it('reads the settings the bridge and the commands need', async () => {
    const schedules = await client.businessHours.list();
    expect(schedules.data.length).toBeGreaterThan(0);
    const one = await client.businessHours.get(schedules.data[0]!.id);
    expect(one.timezone).toBeTruthy();
    const groups = await client.profileGroups.list();
    expect(groups.data.length).toBeGreaterThan(0);
  });

  it('gets the service refusing an unknown country name as InvalidParameterError', async () => {
    const error = await client.contacts
      .update({ service: 'whatsapp', serviceId: '32470000009' }, { address: { country: { name: 'Belgum' } } }, { topicIds: ['2001'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
  });

  it('turns a revoked token into AuthError with the re-authorise sentence', async () => {
    await control('tokens', { token: 'temp-token', user_id: 'u9', scopes: ['accounts_read'] });
    const temp = newClient('temp-token');
    await temp.topics.list();
    await control('revoke', { user_id: 'u9' });
    const error = await temp.topics.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).humanMessage).toBe('the user changed their password or revoked access: re-authorise');
    await temp.close();
  });
});
