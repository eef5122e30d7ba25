import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, callsOf, startHarness, waitFor, type Harness } from './harness.js';

// The demo's bridge with the embedded NLU trained from the shipped flows, as `npm start` runs it.
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

async function answered(h: Harness, id: string, count: number): Promise<void> {
  await waitFor(
    `${count} bot messages to ${id}`,
    async () => {
      await h.settle();
      return botMessagesTo(h, id).length >= count;
    },
    20_000,
  );
}

async function handedOver(h: Harness, id: string): Promise<void> {
  await waitFor(
    `the handover of ${id}`,
    async () => {
      await h.settle();
      return callsOf(h, 'POST', `/inbox/handover/whatsapp/${id}`).length > 0;
    },
    20_000,
  );
}

describe('customers understood in their own words, end to end', () => {
  it('answers a paraphrase, hands over a one-word Dutch request in Dutch, and uses an order number from the first message', async () => {
    h = await startHarness();
    await h.say('32470000201', 'Could someone tell me until what time you guys work today?');
    await answered(h, '32470000201', 2);
    expect(botMessagesTo(h, '32470000201')[1]?.message).toContain("We're open until 17:00");

    await h.say('32470000202', 'medewerker?');
    await handedOver(h, '32470000202');
    await answered(h, '32470000202', 2);
    expect(botMessagesTo(h, '32470000202').at(-1)?.message).toBe('Ik geef u door aan een collega. Die antwoordt hier in deze chat.');

    await h.say('32470000203', 'where is order AB-12345?');
    await handedOver(h, '32470000203');
    await answered(h, '32470000203', 2);
    const replies = botMessagesTo(h, '32470000203').map((r) => r.message);
    expect(replies.at(-1)).toBe('Thanks! A colleague will look up order AB-12345 and answer you here.');
    expect(replies.join(' ')).not.toContain('What is your order number');
  });
});
