import { afterEach, describe, expect, it } from 'vitest';
import { pollBlind } from '../../../src/bridge/create-bridge.js';
import {
  probeOrder,
  probePageSize,
  probeSourceFilter,
  probeTopicFilter,
  probeWindow,
} from '../../../src/bridge/intake/mention-list-probes.js';
import { readinessAnswer } from '../../../src/http/readiness-answer.js';
import { createEngageClient, RateLimitRegistry, type EngageClient } from '../../../src/engage/index.js';
import type { MentionListParam } from '../../../src/simulator/guesses.js';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../../e2e/harness.js';

let h: Harness | undefined;
let client: EngageClient | undefined;
afterEach(async () => {
  await client?.close();
  await h?.stop();
  h = undefined;
  client = undefined;
});

const topics = ['2001'];
const sources = ['whatsapp'];
const filter = 'source:whatsapp';

async function probes(ignore: MentionListParam[]) {
  h = await startHarness({ realism: { mentions_ignore: ignore } });
  // A second apart: the order of mentions of one second cannot be told from their dates.
  await h.say('32475000001', 'hello');
  h.advance(1000);
  await h.say('32475000002', 'hello', 'viber');
  h.advance(1000);
  await h.say('32475000003', 'hello again');
  client = createEngageClient({
    baseUrl: h.simUrl,
    accountId: '1001',
    accessToken: 'sim-token',
    rateLimit: { registry: new RateLimitRegistry() },
  });
  const engage = { mentions: client.mentions };
  return {
    window: await probeWindow(engage, { nowMs: h.now(), topicIds: topics }),
    order: await probeOrder(engage, { topicIds: topics }),
    filter: await probeSourceFilter(engage, { topicIds: topics, filter, sources }),
    topics: await probeTopicFilter(engage, { topicIds: topics }),
    limit: await probePageSize(engage, { topicIds: topics }),
  };
}

describe('the probes of what the mentions list honours (issue 26)', () => {
  it('find every guess holding on a service that honours them', async () => {
    const found = await probes([]);
    expect(Object.values(found).map((r) => r.holds)).toEqual([true, true, true, true, true]);
  });

  it('find the window, the order, the source filter and the page size ignored, each by its own probe', async () => {
    const found = await probes(['date_from', 'sort', 'filter', 'limit']);
    expect(found.window).toMatchObject({ holds: false, detail: expect.stringMatching(/date_from is ignored/) });
    expect(found.order.holds).toBe(false);
    expect(found.filter.holds).toBe(false);
    expect(found.limit.holds).toBe(false);
    expect(found.topics.holds).toBe(true);
  });
});

describe('a poll on a mentions list that ignores the window and the order', () => {
  it('reads newest first and stops at its cursor instead of re-reading every older page, and answers the new customer', async () => {
    const history = Array.from({ length: 60 }, (_, i) => ({
      id: `3247600${String(i).padStart(4, '0')}`,
      text: 'old',
      secondsAgo: 7200 + i,
    }));
    h = await startHarness({ realism: { mentions_ignore: ['date_from', 'date_to', 'sort', 'limit'] }, history });
    const health = h.running.bridge.context.health;
    expect(health.guesses?.snapshot().probes['mentions-window']?.holds).toBe(false);
    await h.settle();
    const before = callsOf(h, 'GET', '/inbox/mentions').length;
    await h.say('32476999999', 'hello');
    await h.settle();
    expect(callsOf(h, 'GET', '/inbox/mentions').length - before).toBeLessThanOrEqual(2);
    expect(botMessagesTo(h, '32476999999')).toHaveLength(1);
    for (const m of history.slice(0, 3)) expect(botMessagesTo(h, m.id)).toHaveLength(0);
  });
});

describe('a poll that lists nothing while the webhook sees customers', () => {
  it('is a readiness failure of its own once the poll had time to list them', () => {
    const at = 1_000_000;
    const health = { pausedForAll: false, revoked: false, customerSeenElsewhereAt: at, lastPollOkAt: at + 70_000 };
    expect(pollBlind(health, at + 70_000, 1000)).toMatch(/listed nothing/);
    expect(pollBlind({ ...health, pollListedAt: at + 1000 }, at + 70_000, 1000)).toBeUndefined();
    expect(pollBlind({ ...health, lastPollOkAt: at + 10_000 }, at + 70_000, 1000)).toBeUndefined();
    expect(pollBlind({ ...health, customerSeenElsewhereAt: undefined }, at + 70_000, 1000)).toBeUndefined();
  });
});

describe('/readyz for a blind poll', () => {
  it('answers its own code and fixed text', () => {
    expect(readinessAnswer({ ready: false, code: 'poll-sees-nothing', detail: 'x' })).toMatchObject({ code: 'poll-sees-nothing' });
  });
});
