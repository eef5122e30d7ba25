import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, startHarness, type Harness } from '../../e2e/harness.js';

describe('mentions of several topics', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('answers two topics whose mentions share an id: a mention is its topic and id, not its id (#11.10)', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    h.sim.state.topics.set(2002, { id: 2002, name: 'Sales' });
    await h.control('/_sim/realism', { overlapping_mention_ids: true });
    h.advance(120_000); // past the back-off of the start's failed read of 2002 (it did not exist yet)
    await h.settle(); // topic 2002's first read: its baseline, nothing visible yet
    expect(h.running.bridge.poller.failingTopics()).toEqual([]);
    const first = (await h.control('/_sim/inbound', {
      channel: 'whatsapp',
      author: { id: '+3200000011', name: 'Ann' },
      text: 'hello',
      topic_id: 2001,
    })) as {
      id: string;
    };
    const second = (await h.control('/_sim/inbound', {
      channel: 'whatsapp',
      author: { id: '+3200000012', name: 'Bob' },
      text: 'hello',
      topic_id: 2002,
    })) as {
      id: string;
    };
    expect(second.id).toBe(first.id);
    await h.settle();
    expect(botMessagesTo(h, '+3200000011').length).toBeGreaterThan(0);
    expect(botMessagesTo(h, '+3200000012').length).toBeGreaterThan(0);
    const store = h.running.bridge.context.store;
    expect(await store.hasSeen('2001', first.id)).toBe(true);
    expect(await store.hasSeen('2002', second.id)).toBe(true);
  });

  it('keeps both lines when one customer writes in two topics under the same id (#11.10)', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002' } });
    h.sim.state.topics.set(2002, { id: 2002, name: 'Sales' });
    await h.control('/_sim/realism', { overlapping_mention_ids: true });
    h.advance(120_000);
    await h.settle();
    const say = async (topic: number, text: string) =>
      (
        (await h!.control('/_sim/inbound', { channel: 'whatsapp', author: { id: '+3200000013', name: 'Ann' }, text, topic_id: topic })) as {
          id: string;
        }
      ).id;
    const first = await say(2001, 'a question for support');
    await h.settle();
    const second = await say(2002, 'a question for sales');
    expect(second).toBe(first);
    await h.settle();
    const conv = await h.running.bridge.context.store.getConversation('whatsapp:+3200000013');
    expect(conv?.transcript.filter((l) => l.from === 'customer').map((l) => [l.topicId, l.mentionId, l.text])).toEqual([
      ['2001', first, 'a question for support'],
      ['2002', second, 'a question for sales'],
    ]);
  });
});
