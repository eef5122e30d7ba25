import { afterEach, describe, expect, it } from 'vitest';
import { sourceFilter } from '../../../src/bridge/intake/poller.js';
import { InvalidParameterError, type MentionListQuery } from '../../../src/engage/index.js';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../../e2e/harness.js';

describe('polling every watched topic at once (#11.8)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  const listCalls = () => callsOf(h!, 'GET', '/inbox/mentions');
  const sales = () => h!.sim.state.topics.set(2002, { id: 2002, name: 'Sales' });
  const sayIn = async (topic: number, id: string, text: string) => {
    await h!.control('/_sim/inbound', { channel: 'whatsapp', author: { id, name: 'Ann' }, text, topic_id: topic });
  };

  it('reads all topics in one paged call with one cursor, narrowed to the served sources', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    sales();
    h.advance(120_000); // past the back-off of the start's read of 2002, which did not exist yet
    await h.settle(); // 2002's baseline read, alone
    await sayIn(2001, '+3200000041', 'hello');
    await sayIn(2002, '+3200000042', 'hello');
    const before = listCalls().length;
    await h.settle();
    const calls = listCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params['topic_ids']).toBe('2001,2002');
    expect(calls[0]!.params['filter']).toContain('source:whatsapp');
    expect(botMessagesTo(h, '+3200000041').length).toBeGreaterThan(0);
    expect(botMessagesTo(h, '+3200000042').length).toBeGreaterThan(0);
    // Polling calls per hour: in /metrics (totals) and in status (the last hour).
    expect(await h.running.metrics.text()).toMatch(/engage_bridge_poll_calls_total\{kind="list"\} \d+/);
    const health = await h.running.bridge.control.health();
    expect(health.pollCallsLastHour).toEqual({ list: listCalls().length, recheck: callsOf(h, 'GET', '/inbox/mention/').length });
  });

  it('keeps a new topic’s first read as its baseline: what it shows then is history, what comes after is answered', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    await sayIn(2001, '+3200000043', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000043').length).toBeGreaterThan(0);
    sales();
    await sayIn(2002, '+3200000044', 'written before the bridge ever read topic 2002');
    h.advance(120_000);
    await h.settle();
    expect(botMessagesTo(h, '+3200000044')).toEqual([]);
    await sayIn(2002, '+3200000044', 'a new question');
    const before = listCalls().length;
    await h.settle();
    expect(botMessagesTo(h, '+3200000044').length).toBeGreaterThan(0);
    expect(
      listCalls()
        .slice(before)
        .map((c) => c.params['topic_ids']),
    ).toEqual(['2001,2002']);
  });

  it('splits a joint read the service refuses, so a topic gone from the account holds up no other topic', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    sales();
    h.advance(120_000);
    await h.settle();
    await h.settle(); // both topics now read jointly
    h.sim.state.topics.delete(2002); // the service now refuses topic_ids with 2002 in it
    await sayIn(2001, '+3200000045', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000045').length).toBeGreaterThan(0);
    expect(h.running.bridge.poller.failingTopics().map((t) => t.topicId)).toEqual(['2002']);
    const before = listCalls().length;
    await h.settle(); // 2002 backs off alone; 2001 is read jointly, by itself
    expect(
      listCalls()
        .slice(before)
        .map((c) => c.params['topic_ids']),
    ).toEqual(['2001']);
  });

  it('skips one topic’s odd item alone in the joint read: the other topic’s customer is answered', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    sales();
    h.advance(120_000);
    await h.settle();
    await sayIn(2001, '+3200000046', 'first');
    const odd = h.sim.state.mentions.range([2001], 0, Number.MAX_SAFE_INTEGER).at(-1)!;
    (odd as unknown as { content: unknown }).content = 42; // message.content as a number
    await sayIn(2002, '+3200000047', 'hello');
    const before = listCalls().length;
    await h.settle();
    expect(
      listCalls()
        .slice(before)
        .map((c) => c.params['topic_ids']),
    ).toEqual(['2001,2002']);
    expect(botMessagesTo(h, '+3200000047').length).toBeGreaterThan(0);
    expect(botMessagesTo(h, '+3200000046')).toEqual([]);
    expect(await h.running.metrics.text()).toMatch(/engage_bridge_skipped_items_total\{source="poll",reason="invalid-mention"\} 1\b/);
  });

  it('drops the source filter for good when the service refuses it, and reads every source', async () => {
    h = await startHarness();
    const { mentions } = h.running.bridge.context.engage;
    const real = mentions.listPages.bind(mentions);
    (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}) => {
      if (q.filter === undefined) return real(q);
      // biome-ignore lint/correctness/useYield: a generator that fails on its first read, like a refused call
      return (async function* () {
        throw new InvalidParameterError({ method: 'GET', path: '/1001/inbox/mentions', status: 400, description: 'bad filter' });
      })();
    };
    await h.say('+3200000048', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000048').length).toBeGreaterThan(0);
    const before = listCalls().length;
    await h.settle();
    expect(
      listCalls()
        .slice(before)
        .map((c) => c.params['filter']),
    ).toEqual([undefined]);
  });

  it('builds the source filter only from plain service names', () => {
    expect(
      sourceFilter(
        new Map([
          ['whatsapp', 'whatsapp'],
          ['web', 'web'],
        ]),
      ),
    ).toBe('source:whatsapp OR source:web');
    expect(sourceFilter(new Map([['odd name', 'x']]))).toBeUndefined();
  });
});
