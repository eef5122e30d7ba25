import { describe, it, expect, afterEach } from 'vitest';
import { startHarness, botMessagesTo, callsOf, waitFor, type Harness } from './harness.js';
import { startFakeNlu, type FakeNlu } from '../nlu/fake-nlu-server.js';

let h: Harness | undefined;
let nlu: FakeNlu | undefined;
afterEach(async () => {
  await h?.stop();
  await nlu?.stop();
  h = undefined;
  nlu = undefined;
});

/** Polls and settles until `check` holds (a busy machine may need more than one poll). */
async function until(h: Harness, what: string, check: () => boolean): Promise<void> {
  await waitFor(
    what,
    async () => {
      await h.settle();
      return check();
    },
    20_000,
  );
}

describe('an NLU server in front of the keywords', () => {
  it('understands an intent the keywords miss while the NLU server is up', async () => {
    nlu = await startFakeNlu([{ word: 'cash', intent: 'request_refund', confidence: 0.95 }]);
    // A generous budget: this test is about understanding, not speed (the machine may be busy).
    h = await startHarness({ env: { BRIDGE_NLU_URL: nlu.url, BRIDGE_NLU_TIMEOUT_MS: '5000' } });
    await h.say('32470000301', 'hello');
    await until(h, 'the greeting', () => botMessagesTo(h!, '32470000301').length >= 1);
    await h.say('32470000301', 'I would like my cash returned');
    await until(h, 'the handover', () => callsOf(h!, 'POST', '/inbox/handover/whatsapp/32470000301').length > 0);
    expect(nlu.asked).toContain('I would like my cash returned');
    expect(callsOf(h, 'POST', '/inbox/handover/whatsapp/32470000301')).toHaveLength(1);
    const [esc] = await h.running.store.listEscalations({ status: 'open' });
    expect(esc?.reason).toBe('always_human');
  });

  it('answers every message with keywords while the NLU server hangs, and stops asking it after repeated failures', async () => {
    nlu = await startFakeNlu();
    nlu.behaviour = 'hang';
    h = await startHarness({ env: { BRIDGE_NLU_URL: nlu.url, BRIDGE_NLU_TIMEOUT_MS: '50' } });
    const texts = ['hello', 'what time do you open', 'blah blah', 'where is my parcel', 'thanks'];
    for (const [i, t] of texts.entries()) {
      await h.say('32470000302', t);
      await until(h, `an answer to "${t}"`, () => botMessagesTo(h!, '32470000302').length >= i + 1);
    }
    const replies = botMessagesTo(h, '32470000302').map((m) => m.message);
    expect(replies.length).toBeGreaterThanOrEqual(texts.length);
    expect(replies.some((r) => r.includes('open until'))).toBe(true);
    expect(replies.some((r) => r.includes('order number'))).toBe(true);
    // Three failures open the breaker: the last two messages are not sent at all. (Under load a request may be
    // given up before the server even reads it, so fewer may arrive; never more.)
    expect(nlu.asked.length).toBeLessThanOrEqual(3);
  });
});
