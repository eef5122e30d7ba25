import { afterEach, describe, expect, it } from 'vitest';
import type { MentionListQuery } from '../../../src/engage/index.js';
import { parseCursor } from '../../../src/bridge/intake/poll-window.js';
import { botMessagesTo, startHarness, type Harness } from '../../e2e/harness.js';

describe('a long read of a topic', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('keeps its progress page by page: a failure on a later page does not send the next read back to the start', async () => {
    h = await startHarness();
    const base = Math.floor(h.now() / 1000);
    // 101 customers, one second apart on the service's clock: two pages (of 100 and 1).
    for (let i = 0; i < 101; i++) {
      h.setServiceOffset(i);
      await h.say(`+3200001${String(i).padStart(4, '0')}`, 'hello');
    }
    const { context, poller } = h.running.bridge;
    const { mentions } = context.engage;
    const real = mentions.listPages.bind(mentions);
    (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}) =>
      (async function* () {
        let pages = 0;
        for await (const page of real(q)) {
          if (++pages === 2) throw new Error('the second page failed');
          yield page;
        }
      })();
    await poller.tick().catch(() => undefined);
    // Topics read before are read together from one cursor (`*`).
    const cursor = parseCursor(await context.store.getCursor('*'));
    // The first page (the 100 oldest) is behind the cursor already.
    expect(cursor?.newestAddedAt).toBeGreaterThanOrEqual(base + 99);
    (mentions as { listPages: typeof real }).listPages = real;
    h.advance(5 * 60_000); // past the failed read's backoff
    await h.settle();
    await h.settle();
    for (const i of [0, 99, 100]) expect(botMessagesTo(h, `+3200001${String(i).padStart(4, '0')}`)).toHaveLength(1);
  });

  it('writes no cursor when a poll read only what it had read before (its overlap again)', async () => {
    h = await startHarness();
    await h.say('+32000020001', 'hello');
    await h.settle();
    expect(botMessagesTo(h, '+32000020001')).toHaveLength(1);
    const { context, poller } = h.running.bridge;
    const before = parseCursor(await context.store.getCursor('*'));
    expect(before).toBeDefined();
    const store = context.store as { setCursor: typeof context.store.setCursor };
    const real = store.setCursor.bind(context.store);
    const written: string[] = [];
    store.setCursor = (topicId, cursor) => {
      written.push(topicId);
      return real(topicId, cursor);
    };
    // The customer's message and the bot's answer are inside the overlap: read again, nothing moves.
    await poller.tick();
    expect(written).toEqual([]);
    // Something new moves the cursor, and it is written.
    h.setServiceOffset(2);
    await h.say('+32000020002', 'hello');
    await poller.tick();
    expect(written).toContain('*');
    expect(parseCursor(await context.store.getCursor('*'))?.newestAddedAt).toBeGreaterThan(
      before?.newestAddedAt ?? Number.POSITIVE_INFINITY,
    );
  });
});
