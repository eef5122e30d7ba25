import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UNCLASSIFIED_TRIES } from '../../src/bridge/conversation-worker.js';
import { testTempDir } from '../support/temp-dir.js';
import { botMessagesTo, callsOf, startHarness, waitFor, type Harness } from './harness.js';

const GONE = '32470000404';
const ANN = '32470000001';

/** The service forgets a contact after it wrote (deleted, or an author it never knew): GET handover answers 404. */
function forgetContact(h: Harness, serviceId: string): void {
  const state = h.sim.state;
  const real = state.contactByService.bind(state);
  state.contactByService = (type: string, id: string) => (id === serviceId ? undefined : real(type, id));
}

let open: Harness[] = [];
afterEach(async () => {
  for (const h of open) await h.stop();
  open = [];
});

describe('a contact the service answers 404 for (issue 26: hand it to people with a note, never park it out of sight)', () => {
  it('is left with people with a note on the message, asked about once, and other contacts are still answered', async () => {
    const dataDir = testTempDir('eb-dead-');
    const h = await startHarness({ dataDir });
    open.push(h);
    const gone = await h.say(GONE, 'hello');
    await h.say(ANN, 'hello');
    forgetContact(h, GONE);
    await h.settle();

    await waitFor('Ann is answered', () => botMessagesTo(h, ANN).length > 0);
    expect(botMessagesTo(h, GONE)).toHaveLength(0);
    expect(callsOf(h, 'GET', `handover/whatsapp/${GONE}`)).toHaveLength(1);
    // Marked processed: no later run takes it again; nothing parked.
    expect(await h.running.store.pendingInbound(`whatsapp:${GONE}`)).toHaveLength(0);
    expect(h.running.bridge.dispatcher.depth()).toBe(0);
    expect(h.sim.state.mentions.get(gone)?.actions.some((a) => a.type === 'note' && (a.extra ?? '').includes('404'))).toBe(true);
    expect(await h.running.metrics.text()).toMatch(/engage_bridge_guess_not_held_total\{guess="handover-item-exists"\} 1/);
    expect((await h.running.store.getConversation(`whatsapp:${GONE}`))?.owner).toBe('agents');

    // More polls later: still one GET for that contact.
    h.advance(10 * 60_000);
    await h.settle();
    expect(callsOf(h, 'GET', `handover/whatsapp/${GONE}`)).toHaveLength(1);
  });
});

describe('a mention that fails for good', () => {
  it('parks a mention whose failure is not the service (a bug) after a few tries, and answers the others meanwhile', async () => {
    const h = await startHarness();
    open.push(h);
    const ownership = h.running.bridge.context.ownership;
    const confirm = ownership.confirm.bind(ownership);
    let broken = 0;
    ownership.confirm = async (key, ...rest) => {
      if (key === `whatsapp:${GONE}`) {
        broken++;
        throw new TypeError('a bug met an odd item');
      }
      return confirm(key, ...rest);
    };
    await h.say(GONE, 'hello');
    await h.say(ANN, 'hello');
    await h.settle();
    await waitFor('Ann is answered', () => botMessagesTo(h, ANN).length > 0);
    // The dispatcher retries later and later; run the retries now instead of waiting for them.
    for (let i = 0; i < 6; i++) {
      h.running.bridge.dispatcher.schedule(`whatsapp:${GONE}`);
      await h.running.bridge.idle();
    }
    expect(broken).toBe(MAX_UNCLASSIFIED_TRIES);
    expect(await h.running.store.pendingInbound(`whatsapp:${GONE}`)).toHaveLength(0);
    expect(await h.running.metrics.text()).toMatch(/engage_bridge_mentions_dead_total\{code="error"\} 1/);
  });
});
