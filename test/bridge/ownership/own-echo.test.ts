import { afterEach, describe, expect, it } from 'vitest';
import { publish } from '../../../src/simulator/publish.js';
import { startHarness, type Harness } from '../../e2e/harness.js';

let h: Harness | undefined;

/**
 * The simulator's clock stands still at the harness's start second while the bridge's first-start baseline is
 * taken a moment later: under load a second boundary falls in between and a first message would count as history
 * (the clock comparison of #10.1). Moving both clocks a second on keeps these tests about what they test.
 */
function fromNextSecond(harness: Harness): void {
  harness.advance(1000);
}
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const KEY = 'whatsapp:32470000301';

/** The service publishes a message of the bot's user to the customer's latest mention, as a late reply would be. */
function publishedLate(harness: Harness, mentionId: string, text: string, userId: string): void {
  const mention = harness.sim.state.mentions.get(mentionId)!;
  publish(harness.sim, {
    type: 'reply',
    services: [{ type: 'whatsapp', service_id: '3225550100' }],
    message: text,
    subject: null,
    to: [],
    media: [],
    status: '',
    publishAt: harness.sim.now(),
    mention,
    canned: null,
    userId,
    author: userId === 'u1' ? 'bot' : 'agent',
  });
}

describe("the bot's own messages are recognised by who wrote them, not by text and time", () => {
  it('takes a reply of its own user published 20 minutes after the decision for its own, not for a person', async () => {
    h = await startHarness();
    fromNextSecond(h);
    const mentionId = await h.say('32470000301', 'hello');
    await h.settle();
    expect((await h.running.store.getConversation(KEY))?.owner).toBe('bot');
    // A reply decided now whose message the service only publishes 20 minutes later (an outage, a restart).
    const decidedAt = h.now();
    await h.running.store.updateConversation(KEY, (c) =>
      c ? { ...c, transcript: [...c.transcript, { at: decidedAt, from: 'bot', text: 'Still there?' }] } : undefined,
    );
    h.advance(20 * 60_000);
    publishedLate(h, mentionId, 'Still there?', 'u1');
    await h.settle();
    const conv = await h.running.store.getConversation(KEY);
    expect(conv?.owner).toBe('bot');
    expect(conv?.transcript.some((l) => l.from === 'agent')).toBe(false);
  });

  it('still takes a message written by another user of the account for a person taking over', async () => {
    h = await startHarness();
    fromNextSecond(h);
    await h.say('32470000302', 'hello');
    await h.settle();
    await h.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: '32470000302', text: 'Hi, Bob here' });
    await h.settle();
    expect((await h.running.store.getConversation('whatsapp:32470000302'))?.owner).toBe('agents');
  });
});
