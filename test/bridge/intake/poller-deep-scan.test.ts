import { afterEach, describe, expect, it } from 'vitest';
import { ServerError, type MentionListQuery } from '../../../src/engage/index.js';
import { parseCursor } from '../../../src/bridge/intake/poll-window.js';
import { botMessagesTo, startHarness, type Harness } from '../../e2e/harness.js';

const customer = (i: number) => `+3200002${String(i).padStart(4, '0')}`;

/**
 * Replaces the mentions list: every read reaching back before `beforeSeconds` (the re-scan, not the read from the
 * cursor) fails on its `failAtPage`th page, a transient fault. Every read is kept.
 */
function failingReads(h: Harness, failAtPage: number, beforeSeconds: number): MentionListQuery[] {
  const { mentions } = h.running.bridge.context.engage;
  const real = mentions.listPages.bind(mentions);
  const reads: MentionListQuery[] = [];
  (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}, o = {}) =>
    (async function* () {
      reads.push(q);
      let pages = 0;
      for await (const page of real(q, o)) {
        if (++pages === failAtPage && new Date(q.dateFrom ?? 0).getTime() < beforeSeconds * 1000) {
          throw new ServerError({ method: 'GET', path: '/1001/inbox/mentions', status: 503, description: 'injected' });
        }
        yield page;
      }
    })();
  return reads;
}

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

/** 120 customers, one second apart on the service's clock, all answered: more than one page of look-back. */
async function busyHistory(h: Harness): Promise<void> {
  for (let i = 0; i < 120; i++) {
    h.setServiceOffset(i);
    await h.say(customer(i), 'hello');
  }
  await h.settle();
  await h.settle();
  for (const i of [0, 119]) expect(botMessagesTo(h, customer(i))).toHaveLength(1);
}

describe("the poll's deep re-scan", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('never holds back a new mention: the read from the cursor comes first, whatever happens to the re-scan', async () => {
    h = await startHarness({ env: { BRIDGE_LOOKBACK_SECONDS: '600' } });
    await busyHistory(h);
    h.advance(2 * 60_000); // a deep re-scan is due
    h.setServiceOffset(121);
    await h.say(customer(500), 'hello');
    // A re-scan of the look-back window (several pages) cannot get past its second page.
    const cursor = parseCursor(await h.running.bridge.context.store.getCursor('*'));
    failingReads(h, 2, cursor!.newestAddedAt - 60);
    await h.settle();
    expect(botMessagesTo(h, customer(500))).toHaveLength(1);
  });

  it('keeps its progress: a failed re-scan resumes where it stopped, bounded by where it began', async () => {
    h = await startHarness({ env: { BRIDGE_LOOKBACK_SECONDS: '600' } });
    await busyHistory(h);
    const before = parseCursor(await h.running.bridge.context.store.getCursor('*'));
    h.advance(2 * 60_000);
    const reads = failingReads(h, 2, before!.newestAddedAt - 60);
    await h.settle();
    const during = parseCursor(await h.running.bridge.context.store.getCursor('*'));
    expect(during?.deepScan).toBeDefined();
    // One page of 100 read: the re-scan's start moved past the oldest customers, its end stays where it began.
    expect(during!.deepScan!.fromSeconds).toBeGreaterThan(before!.newestAddedAt - 600);
    expect(during!.deepScan!.toSeconds).toBe(before!.newestAddedAt);
    const resumedFrom = during!.deepScan!.fromSeconds;
    reads.length = 0;
    await h.settle();
    const deepReads = reads.filter((q) => q.dateTo !== undefined);
    expect(new Date(deepReads[0]?.dateFrom ?? 0).getTime()).toBe(resumedFrom * 1000);
    expect(new Date(deepReads[0]?.dateTo ?? 0).getTime()).toBe(before!.newestAddedAt * 1000);
  });

  it('finds a mention listed late inside the look-back window, then ends', async () => {
    h = await startHarness({ env: { BRIDGE_LOOKBACK_SECONDS: '600' } });
    await busyHistory(h);
    // Written 60 s before the newest mention seen, listed only now: the read from the cursor cannot see it.
    h.setServiceOffset(60);
    const late = await h.say(customer(700), 'hello');
    h.setServiceOffset(0);
    expect(late).toBeDefined();
    await h.settle();
    expect(botMessagesTo(h, customer(700))).toHaveLength(0);
    h.advance(2 * 60_000);
    for (let i = 0; i < 5 && botMessagesTo(h, customer(700)).length === 0; i++) await h.settle();
    expect(botMessagesTo(h, customer(700))).toHaveLength(1);
    for (let i = 0; i < 5 && parseCursor(await h.running.bridge.context.store.getCursor('*'))?.deepScan; i++) await h.settle();
    expect(parseCursor(await h.running.bridge.context.store.getCursor('*'))?.deepScan).toBeUndefined();
  });

  it('leaves no stretch unscanned between re-scans slower than the look-back window: a mention listed late there is found', async () => {
    // Frozen: the late mention must stay unlisted through the first settle below (15 s late, 6 s advanced); on a
    // running clock a busy machine's seconds could list it there, and the case would not need the re-scan.
    h = await startHarness({ frozenClock: true }); // look-back: the default 120 s
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
    const listedFrom = h.sim.state.mentions.get(late)?.listedFrom ?? 0;
    expect(listedFrom).toBeGreaterThan(Math.floor(h.now() / 1000)); // the case's premise: not listed yet
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
