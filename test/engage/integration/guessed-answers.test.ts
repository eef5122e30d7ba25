import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngageClient, RateLimitError, RateLimitRegistry, type EngageClient } from '../../../src/engage/index.js';
import {
  createSimulator,
  DEFAULT_ACCOUNT_ID,
  DEFAULT_TOKEN,
  type RunningSimulator,
  type SimulatorHandle,
} from '../../../src/simulator/index.js';

// Issue 26: answers the description does not show, from the simulator's guess switches, read by the real client.
let handle: SimulatorHandle;
let running: RunningSimulator;
let client: EngageClient;

beforeAll(async () => {
  handle = createSimulator();
  running = await handle.listen({ port: 0, host: '127.0.0.1' });
  client = createEngageClient({
    baseUrl: running.url,
    accountId: DEFAULT_ACCOUNT_ID,
    accessToken: DEFAULT_TOKEN,
    retry: { maxAttempts: 1 },
    rateLimit: { registry: new RateLimitRegistry() },
  });
});
afterAll(async () => {
  await client.close();
  await running.close();
});

async function customerMention(id: string): Promise<{ id: string; topic_id: string }> {
  const res = await fetch(`${running.url}/_sim/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'whatsapp', author: { id, name: 'Ann' }, text: 'hello' }),
  });
  const m = (await res.json()) as { id: string; topic_id: number };
  return { id: m.id, topic_id: String(m.topic_id) };
}

describe('publisher/add answered 2xx with another body', () => {
  it.each([
    ['empty', null],
    ['array', 'id'],
    ['id_only', 'id'],
  ] as const)('%s: the reply counts as sent, once, and the publisher mention is kept when named', async (shape, named) => {
    handle.sim.setRealism({ publish_answer_shape: shape });
    const m = await customerMention(`3247300${shape.length}`);
    const before = handle.sim.outbound.after(0).length;
    const result = await client.publisher.add({
      type: 'reply',
      services: [{ type: 'whatsapp', service_id: '3225550100' }],
      message: 'On it',
      status: '',
      topicId: m.topic_id,
      mentionId: m.id,
    });
    expect(handle.sim.outbound.after(0).length).toBe(before + 1);
    expect(result.unread).toBeDefined();
    if (named) expect(result.publisher_mention?.id).toEqual(expect.any(String));
    else expect(result.publisher_mention).toBeNull();
    handle.sim.setRealism({ publish_answer_shape: 'envelope' });
  });
});

describe('a rate-limit refusal in any body shape', () => {
  it.each(['text', 'empty'] as const)('%s: read as the documented 400 rate-limit refusal', async (body) => {
    handle.sim.setRealism({ rate_limit_body: body });
    handle.sim.setFaults({ rate_limit: 1 });
    try {
      await expect(client.mentions.list({ limit: 1 })).rejects.toBeInstanceOf(RateLimitError);
    } finally {
      handle.sim.setFaults({});
      handle.sim.setRealism({ rate_limit_body: 'envelope' });
    }
  });
});
