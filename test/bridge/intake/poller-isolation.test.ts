import { afterEach, describe, expect, it } from 'vitest';
import type { MentionListQuery } from '../../../src/engage/index.js';
import { botMessagesTo, startHarness, waitFor, type Harness } from '../../e2e/harness.js';

describe('polling, item by item and topic by topic', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('skips a mention of unexpected shape, counts it once, and answers the others on the page', async () => {
    h = await startHarness();
    const odd = await h.say('+3200000011', 'first');
    const record = h.sim.state.mentions.get(odd) as unknown as { content: unknown };
    record.content = 42; // message.content as a number
    await h.say('+3200000012', 'hello');
    await h.settle();
    await h.settle(); // read again (the overlap): still counted once
    expect(botMessagesTo(h, '+3200000012').length).toBeGreaterThan(0);
    expect(botMessagesTo(h, '+3200000011')).toEqual([]);
    const metrics = await h.running.metrics.text();
    expect(metrics).toMatch(/engage_bridge_skipped_items_total\{source="poll",reason="invalid-mention"\} 1\b/);
  });

  it('reads the other topics while one keeps failing, and backs that one off alone', async () => {
    h = await startHarness({ env: { ENGAGE_TOPIC_IDS: '9999,2001' } });
    const { mentions } = h.running.bridge.context.engage;
    const real = mentions.listPages.bind(mentions);
    let brokenCalls = 0;
    (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}) => {
      if (q.topicIds?.map(String).includes('9999')) {
        brokenCalls++;
        // biome-ignore lint/correctness/useYield: a generator that fails on its first read, like a refused call
        return (async function* () {
          throw new Error('topic 9999 is broken');
        })();
      }
      return real(q);
    };
    await h.say('+3200000013', 'hello');
    await h.settle();
    await waitFor('an answer despite the broken topic', () => botMessagesTo(h!, '+3200000013').length > 0);
    const failing = h.running.bridge.poller.failingTopics();
    expect(failing.map((t) => t.topicId)).toEqual(['9999']);
    const callsBefore = brokenCalls;
    await h.running.bridge.poller.tick(); // within its backoff: the broken topic is not tried again
    expect(brokenCalls).toBe(callsBefore);
  });
});
