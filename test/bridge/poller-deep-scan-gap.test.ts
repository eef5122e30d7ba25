import { afterEach, describe, expect, it } from 'vitest';
import { ServerError, type MentionListQuery } from '../../src/engage/index.js';
import { parseCursor } from '../../src/bridge/poll-window.js';
import { botMessagesTo, startHarness, type Harness } from '../e2e/harness.js';

const customer = (i: number) => `+3200003${String(i).padStart(4, '0')}`;

/** While `failing()`, every read of the deep re-scan (it carries date_to) fails on its first page: a transient fault. */
function failDeepReads(h: Harness, failing: () => boolean): void {
  const { mentions } = h.running.bridge.context.engage;
  const real = mentions.listPages.bind(mentions);
  (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}, o = {}) =>
    (async function* () {
      if (q.dateTo !== undefined && failing()) {
        throw new ServerError({ method: 'GET', path: '/1001/inbox/mentions', status: 503, description: 'injected' });
      }
      yield* real(q, o);
    })();
}

describe('deep re-scans slower than the look-back window', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('leave no stretch unscanned between them: a mention listed late there is still found', async () => {
    h = await startHarness(); // look-back: the default 120 s
    for (let i = 0; i < 10; i++) {
      h.setServiceOffset(i);
      await h.say(customer(i), 'hello');
    }
    h.setServiceOffset(0);
    await h.settle();
    await h.settle();
    let failing = true;
    failDeepReads(h, () => failing);
    h.advance(2 * 60_000); // a re-scan falls due: [N1-120, N1]; its reads fail for a while
    await h.settle();
    const store = h.running.bridge.context.store;
    const scan1 = parseCursor(await store.getCursor('*'))?.deepScan;
    expect(scan1).toBeDefined();

    await h.control('/_sim/realism', { late_indexing_seconds: 15 });
    const late = await h.say(customer(100), 'hello'); // listed 15 s after its date
    await h.control('/_sim/realism', { late_indexing_seconds: 0 });
    h.advance(6_000);
    await h.say(customer(101), 'hi');
    await h.settle(); // the read from the cursor is past the late one's date + 5 s before it is listed
    h.advance(10_000);
    await h.settle(); // listed now; only a re-scan can find it
    h.advance(130_000);
    await h.say(customer(102), 'hi');
    await h.settle();

    failing = false; // the re-scan recovers
    for (let i = 0; i < 3; i++) await h.settle();
    h.advance(2 * 60_000);
    for (let i = 0; i < 5; i++) await h.settle();
    h.advance(2 * 60_000);
    for (let i = 0; i < 5; i++) await h.settle();
    expect(late).toBeDefined();
    expect(botMessagesTo(h, customer(100))).toHaveLength(1);
  });
});
