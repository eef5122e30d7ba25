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
    h.setServiceOffset(-3);
    await h.say('+3200000001', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+3200000001').length).toBeGreaterThan(0);
  });

  it('takes what a topic shows at its first read as history, however recent its timestamps', async () => {
    h = await startHarness();
    // Stamped 5 s ahead of our clock, visible before the topic's first read: history, never answered. (The
    // service's clock is set by the offset: `say` sets the simulator's clock, a `setClock` before it is lost.)
    h.setServiceOffset(5);
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
    await forgetCursors(h);
    await failedTick(h);
    // Two seconds later on the service's clock, a customer writes; then the baseline read succeeds.
    h.setServiceOffset(2);
    await h.say('+3200000004', 'hello, anyone?');
    h.advance(5 * 60_000); // past the failed read's backoff
    await h.settle();
    expect(botMessagesTo(h, '+3200000003')).toEqual([]);
    expect(botMessagesTo(h, '+3200000004').length).toBeGreaterThan(0);
  });

  it('answers a customer who wrote after a baseline read that failed before the service had ever answered', async () => {
    h = await startHarness();
    await h.say('+3200000008', 'an old question');
    await forgetCursors(h);
    // As at a first start while the service is out of reach: no answer yet, so its time is unknown at the failed read.
    const engage = h.running.bridge.context.engage as { serviceNowMs?: () => number | undefined };
    const real = engage.serviceNowMs;
    engage.serviceNowMs = () => undefined;
    try {
      await failedTick(h);
    } finally {
      engage.serviceNowMs = real;
    }
    h.advance(60_000);
    h.setServiceOffset(2);
    await h.say('+3200000009', 'hello, anyone?');
    h.advance(4 * 60_000); // past the failed read's backoff
    // The client's idea of the service's time moves with its answers (the harness moves the service's clock, not the
    // real one): an answer after the jump, as the poll's own calls give it in a running bridge.
    await h.running.bridge.context.engage.topics.list({ limit: 200 });
    await h.settle();
    expect(botMessagesTo(h, '+3200000008')).toEqual([]);
    // Before: the retry's own moment ended history, so this customer, who wrote before it, was never answered.
    expect(botMessagesTo(h, '+3200000009').length).toBeGreaterThan(0);
  });

  it('answers a customer who wrote after a failed first read when the service first answers within the retry', async () => {
    h = await startHarness();
    await h.say('+3200000010', 'an old question');
    await forgetCursors(h);
    // The service's time stays unknown until the retry's first page: the retry is planned blind, then read again.
    const engage = h.running.bridge.context.engage as { serviceNowMs?: () => number | undefined };
    const real = engage.serviceNowMs;
    engage.serviceNowMs = () => undefined;
    const { mentions } = h.running.bridge.context.engage;
    const listPages = mentions.listPages.bind(mentions);
    try {
      await failedTick(h);
      h.advance(60_000);
      h.setServiceOffset(2);
      await h.say('+3200000011', 'hello, anyone?');
      h.advance(4 * 60_000);
      (mentions as { listPages: typeof listPages }).listPages = (q?: MentionListQuery) =>
        (async function* () {
          for await (const page of listPages(q)) {
            engage.serviceNowMs = real; // the service's first answer
            yield page;
          }
        })();
      await h.settle();
    } finally {
      engage.serviceNowMs = real;
      (mentions as { listPages: typeof listPages }).listPages = listPages;
    }
    expect(botMessagesTo(h, '+3200000010')).toEqual([]);
    expect(botMessagesTo(h, '+3200000011').length).toBeGreaterThan(0);
  });

  // The start read every topic's baseline; minutes later a topic's cursor is gone (a topic not read before). What a
  // read then shows is history: the start's read of the topic, long done, says nothing of where history ends now.
  it('takes what a topic shows as history when its cursor is gone long after the start read it', async () => {
    h = await startHarness();
    h.advance(60_000);
    await h.say('+3200000005', 'an old question');
    await forgetCursors(h);
    await h.settle();
    expect(botMessagesTo(h, '+3200000005')).toEqual([]);
  });

  it('takes what a topic showed as history when a first read long after the start fails and the retry succeeds', async () => {
    h = await startHarness();
    h.advance(60_000);
    await h.say('+3200000006', 'an old question');
    await forgetCursors(h);
    await failedTick(h);
    h.setServiceOffset(2);
    await h.say('+3200000007', 'hello, anyone?');
    h.advance(5 * 60_000); // past the failed read's backoff
    await h.settle();
    expect(botMessagesTo(h, '+3200000006')).toEqual([]);
    expect(botMessagesTo(h, '+3200000007').length).toBeGreaterThan(0);
  });
});

/** Every topic (and the joint read) as never read: their next read is a baseline. */
async function forgetCursors(h: Harness): Promise<void> {
  const { context } = h.running.bridge;
  for (const t of (await context.engage.topics.list({ limit: 200 })).data) await context.store.setCursor(String(t.id), null);
  await context.store.setCursor('*', null);
}

/** One poll whose mention reads are refused before their first page. */
async function failedTick(h: Harness): Promise<void> {
  const { context, poller } = h.running.bridge;
  const { mentions } = context.engage;
  const real = mentions.listPages.bind(mentions);
  (mentions as { listPages: typeof real }).listPages = (_q: MentionListQuery = {}) => {
    // biome-ignore lint/correctness/useYield: a read refused before its first page
    return (async function* () {
      throw new Error('the baseline read failed');
    })();
  };
  try {
    await poller.tick().catch(() => undefined);
  } finally {
    (mentions as { listPages: typeof real }).listPages = real;
  }
}
