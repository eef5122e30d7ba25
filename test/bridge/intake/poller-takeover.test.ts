import { afterEach, describe, expect, it } from 'vitest';
import { classifyMention } from '../../../src/bridge/intake/inbound-item.js';
import { knownBotUser } from '../../../src/bridge/ownership/own-echo.js';
import { RECHECK_EVERY_MS } from '../../../src/bridge/intake/poller-recheck.js';
import type { Mention } from '../../../src/engage/index.js';
import { botMessagesTo, startHarness, type Harness } from '../../e2e/harness.js';

const channelBySource = new Map([['whatsapp', 'whatsapp']]);
const accountMention = (extra: Record<string, unknown>): Mention =>
  ({
    id: '9100',
    topic_id: '2001',
    source: { service: 'whatsapp' },
    author: { id: 'profile-1', name: 'Tom', managed: true },
    message: { content: 'Tom here' },
    date: { added: 1_700_000_100 },
    ...extra,
  }) as Mention;

describe('an account-written mention without source.thread_id (#11.5)', () => {
  it('is placed by the customer of the mention it answers (in_reply_to), by author or by a recently read mention', () => {
    const byAuthor = classifyMention(
      accountMention({ in_reply_to: { id: '9001', topic_id: '2001', author: { id: '+3200000031', managed: false } } }),
      { channelBySource },
    );
    expect(byAuthor.map((i) => [i.key, i.payload.kind])).toEqual([['whatsapp:+3200000031', 'account']]);
    const byRef = classifyMention(accountMention({ in_reply_to: { id: '9001', topic_id: '2002' } }), {
      channelBySource,
      keyOfMention: (topicId, id) => (topicId === '2002' && id === '9001' ? 'whatsapp:+3200000032' : undefined),
    });
    expect(byRef.map((i) => i.key)).toEqual(['whatsapp:+3200000032']);
  });

  it('that names nothing is reported as unplaced, so recent mentions are read again at once', () => {
    const unplaced: string[] = [];
    expect(classifyMention(accountMention({}), { channelBySource, onUnplaced: (m) => unplaced.push(m.id) })).toEqual([]);
    expect(unplaced).toEqual(['9100']);
  });
});

describe('an account-written mention whose source.thread_id is the root mention of the thread (issue 26)', () => {
  it("is placed by the root mention's customer when the bridge read it, and by the thread id as a customer id otherwise", () => {
    const keyOfMention = (topicId: string, id: string) => (topicId === '2001' && id === '9001' ? 'whatsapp:+3200000033' : undefined);
    const byRoot = classifyMention(accountMention({ source: { service: 'whatsapp', thread_id: '9001' } }), {
      channelBySource,
      keyOfMention,
    });
    expect(byRoot.map((i) => i.key)).toEqual(['whatsapp:+3200000033']);
    const byCustomer = classifyMention(accountMention({ source: { service: 'whatsapp', thread_id: '+3200000034' } }), {
      channelBySource,
      keyOfMention,
    });
    expect(byCustomer.map((i) => i.key)).toEqual(['whatsapp:+3200000034']);
  });
});

describe('a message from one of the account’s own services without author.managed (issue 26)', () => {
  it('is the account’s, never a customer’s', () => {
    const m = accountMention({
      author: { id: '3225550100', name: 'Demo WhatsApp' },
      source: { service: 'whatsapp', thread_id: '+3200000035' },
    });
    const isOwnService = (type: string | undefined, id: string | undefined) => type === 'whatsapp' && id === '3225550100';
    expect(classifyMention(m, { channelBySource, isOwnService }).map((i) => [i.key, i.payload.kind])).toEqual([
      ['whatsapp:+3200000035', 'account'],
    ]);
    expect(classifyMention(m, { channelBySource }).map((i) => i.payload.kind)).toEqual(['customer']);
  });
});

describe('a person taking over in the service tool', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  const ownerOf = async (serviceId: string) => (await h!.running.bridge.context.store.getConversation(`whatsapp:${serviceId}`))?.owner;

  /** The account-written mention of the latest reply loses its thread, as on sources that do not fill it. */
  const dropLatestThread = (): void => {
    const all = h!.sim.state.mentions.range([2001], 0, Number.MAX_SAFE_INTEGER);
    const latest = all.at(-1)!;
    expect(latest.managed).toBe(true);
    latest.threadId = '';
  };

  it('is seen when the reply action lands on a customer mention older than any poll window and the reply names no thread', async () => {
    h = await startHarness();
    await h.say('+3200000021', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000021').length).toBeGreaterThan(0);
    expect(await ownerOf('+3200000021')).toBe('bot');
    // Someone else writes 10 minutes later: the poll window moves on, far past the first customer's mention.
    h.advance(10 * 60_000);
    await h.say('+3200000099', 'someone else');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '+3200000021', text: 'Tom here, I will take it from here' });
    dropLatestThread();
    await h.settle();
    expect(await ownerOf('+3200000021')).toBe('agents');
  });

  it('is seen within one re-read interval even when no account-written mention shows up at all', async () => {
    h = await startHarness();
    await h.say('+3200000022', 'hello');
    await h.settle();
    expect(await ownerOf('+3200000022')).toBe('bot');
    h.advance(10 * 60_000);
    await h.say('+3200000098', 'someone else');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '+3200000022', text: 'Tom here' });
    const latest = h.sim.state.mentions.range([2001], 0, Number.MAX_SAFE_INTEGER).at(-1)!;
    h.sim.state.mentions.remove(latest.id, latest.topicId);
    h.advance(RECHECK_EVERY_MS);
    await h.settle();
    expect(await ownerOf('+3200000022')).toBe('agents');
  });

  it('is not claimed by a reply action of the bot’s own user', async () => {
    h = await startHarness();
    await h.say('+3200000023', 'hello');
    await h.settle();
    const bot = await knownBotUser(h.running.bridge.context);
    expect(bot?.id).toBeDefined();
    await h.control('/_sim/agent/reply', {
      channel: 'whatsapp',
      service_id: '+3200000023',
      text: 'a reply the bot sent',
      user_id: bot!.id,
    });
    await h.settle();
    h.advance(RECHECK_EVERY_MS);
    await h.settle();
    expect(await ownerOf('+3200000023')).toBe('bot');
  });
});

describe('re-reads of recent mentions', () => {
  it('stay within a quarter of a configured hourly budget, and at 20 per pass without one', async () => {
    const { rechecksPerPass } = await import('../../../src/bridge/intake/poller-recheck.js');
    expect(rechecksPerPass(0)).toBe(20);
    expect(rechecksPerPass(1000)).toBe(2); // 250 an hour over 120 passes
    expect(rechecksPerPass(100)).toBe(1);
    expect(rechecksPerPass(1_000_000)).toBe(20);
  });
});

describe('the re-read pass', () => {
  it('reads again only mentions of conversations the bot may speak in, each pass at most the bound', async () => {
    const { MentionRecheck, recheckRecent } = await import('../../../src/bridge/intake/poller-recheck.js');
    const { createMemoryStore } = await import('../../../src/storage/index.js');
    const store = createMemoryStore({ clock: () => 1_000 });
    const now = () => 1_000;
    for (const [key, owner] of [
      ['whatsapp:1', 'bot'],
      ['whatsapp:2', 'agents'],
      ['whatsapp:3', 'unknown'],
    ] as const)
      await store.saveConversation({ key, channel: 'whatsapp', serviceId: key.slice(9), owner, transcript: [], updatedAt: 1_000 });
    const recheck = new MentionRecheck();
    for (const n of [1, 2, 3, 4]) recheck.watch({ topicId: '2001', id: String(9000 + n), key: `whatsapp:${n}`, addedAt: n }, 1_000);
    const read: string[] = [];
    const ctx = {
      store,
      now,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      settings: { rateLimitPerHour: 0 },
      engage: { mentions: { get: async (ref: { id: string }) => (read.push(ref.id), { id: ref.id, topic_id: '2001' }) } },
    } as unknown as Parameters<typeof recheckRecent>[0];
    await recheckRecent(ctx, recheck, { count: () => undefined, ingest: async () => 0 });
    expect(read.sort()).toEqual(['9001', '9003', '9004']);
    await store.close();
  });
});
