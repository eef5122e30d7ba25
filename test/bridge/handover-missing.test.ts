import { afterEach, describe, expect, it } from 'vitest';
import { deadEffects } from '../../src/bridge/effects/effect-dead.js';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../e2e/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('a first contact whose handover the service answers 404 (issue 26)', () => {
  it('is left with people with a note on the message saying why, not parked out of sight', async () => {
    h = await startHarness({ realism: { handover_404_new_contacts: true } });
    const id = '32478000001';
    const mentionId = await h.say(id, 'hello');
    await h.settle();
    expect(botMessagesTo(h, id)).toHaveLength(0);
    expect(callsOf(h, 'DELETE', `/inbox/handover/whatsapp/${id}`)).toHaveLength(0);
    const mention = h.sim.state.mentions.get(mentionId)!;
    expect(mention.actions.some((a) => a.type === 'note' && (a.extra ?? '').includes('404'))).toBe(true);
    expect((await deadEffects(h.running.store)).count).toBe(0);
    expect((await h.running.store.getConversation(`whatsapp:${id}`))?.owner).toBe('agents');
  });
});
