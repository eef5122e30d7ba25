import { afterEach, describe, expect, it } from 'vitest';
import type { MentionListQuery } from '../../../src/engage/index.js';
import { botMessagesTo, startHarness, type Harness } from '../../e2e/harness.js';

describe('the first-start baseline', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('answers a customer who writes right after the first start even when the service clock is behind ours', async () => {
    h = await startHarness(); // the start reads each topic's baseline: nothing visible yet
    // The service's clock runs 3 s behind the bridge's: the customer's mention is stamped before our start.
    h.sim.setClock(Math.floor(h.now() / 1000) - 3);
    await h.say('+3200000001', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000001').length).toBeGreaterThan(0);
  });

  it('takes what a topic shows at its first read as history, however recent its timestamps', async () => {
    h = await startHarness();
    // Stamped 5 s ahead of our clock, visible before the topic's first read: history, never answered.
    h.sim.setClock(Math.floor(h.now() / 1000) + 5);
    await h.say('+3200000002', 'an old question');
    // A topic not read before (a new one, or a first start): no cursor.
    const { context } = h.running.bridge;
    for (const t of (await context.engage.topics.list({ limit: 200 })).data) await context.store.setCursor(String(t.id), null);
    await h.settle();
    expect(botMessagesTo(h, '+3200000002')).toEqual([]);
    await h.say('+3200000002', 'a new question');
    await h.settle();
    expect(botMessagesTo(h, '+3200000002').length).toBeGreaterThan(0);
  });

  it('answers a customer who wrote after a failed baseline read, when the read succeeds later', async () => {
    h = await startHarness();
    await h.say('+3200000003', 'an old question');
    const { context, poller } = h.running.bridge;
    for (const t of (await context.engage.topics.list({ limit: 200 })).data) await context.store.setCursor(String(t.id), null);
    await context.store.setCursor('*', null);
    const { mentions } = context.engage;
    const real = mentions.listPages.bind(mentions);
    (mentions as { listPages: typeof real }).listPages = (_q: MentionListQuery = {}) => {
      // biome-ignore lint/correctness/useYield: a read refused before its first page
      return (async function* () {
        throw new Error('the baseline read failed');
      })();
    };
    await poller.tick().catch(() => undefined);
    (mentions as { listPages: typeof real }).listPages = real;
    // Two seconds later on the service's clock, a customer writes; then the baseline read succeeds.
    h.setServiceOffset(2);
    await h.say('+3200000004', 'hello, anyone?');
    h.advance(5 * 60_000); // past the failed read's backoff
    await h.settle();
    expect(botMessagesTo(h, '+3200000003')).toEqual([]);
    expect(botMessagesTo(h, '+3200000004').length).toBeGreaterThan(0);
  });
});
