import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, startHarness, waitFor, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

// The bridge's clock is frozen in both: each case needs the customer's message dated before the bridge's first read
// (3 s and 4 s behind it), which a running clock breaks when the start takes longer than that on a busy machine.
describe('the very first start', () => {
  it('keeps what the inbox showed as history, and answers a customer who writes right after, with the service 3 s behind our clock (#10.1)', async () => {
    // History: written before the bridge ever ran.
    h = await startHarness({ history: [{ id: '32470000041', text: 'an old question', secondsAgo: 60 }], frozenClock: true });
    // The service's clock runs 3 s behind ours from now on.
    h.setServiceOffset(-3);
    await h.settle();
    expect(botMessagesTo(h, '32470000041')).toHaveLength(0);
    await h.say('32470000042', 'hello');
    await h.settle();
    await waitFor('the greeting of the customer who wrote after the start', () => botMessagesTo(h!, '32470000042').length > 0);
    expect(botMessagesTo(h, '32470000041')).toHaveLength(0);
  });

  it('answers a message that becomes visible late, after the first read, even though its timestamp is older (#10.1)', async () => {
    h = await startHarness({ frozenClock: true }); // its first read: an empty inbox
    // Indexed late: the service dates it 4 s before the first read, but only lists it now.
    h.setServiceOffset(-4);
    await h.say('32470000043', 'hello');
    h.setServiceOffset(0);
    await h.settle();
    await waitFor('the greeting of the late-indexed message', () => botMessagesTo(h!, '32470000043').length > 0);
  });
});
