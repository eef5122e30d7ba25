import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, startHarness, type Harness } from './harness.js';

const SECRET = 'hook-secret-of-at-least-32-characters';
const CUSTOMER = '32470000777';

describe('a restart with webhook pushes', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    if (!h) return;
    await h.stop();
    h = undefined;
  });

  it('answers what a customer wrote during the outage before what they wrote after it', async () => {
    const world = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: SECRET } });
    h = world;
    // The list shows a mention 10 s after its date (as chaos's realism does); the pushes come at once.
    await world.control('/_sim/realism', { late_indexing_seconds: 10 });
    const hook = () => world.control('/_sim/webhooks', { url: `${world.running.http.url}/webhooks/engage/${SECRET}` });
    await hook();
    await world.say(CUSTOMER, 'hello');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    expect(botMessagesTo(world, CUSTOMER)).toHaveLength(1);
    world.advance(11_000);
    await world.settle(); // the poll has read it too: the cursor is past it
    let during = '';
    await world.restart(async () => {
      await world.control('/_sim/webhooks', {}); // the bridge is down: pushes reach nobody
      world.advance(1_000);
      during = await world.say(CUSTOMER, 'where is my order');
    });
    await hook();
    world.advance(1_000);
    const after = await world.say(CUSTOMER, 'thanks');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    // The later message came at once, the earlier one is not listed yet: nothing is decided ahead of the poll.
    expect(botMessagesTo(world, CUSTOMER)).toHaveLength(1);
    world.advance(11_000);
    await world.settle();
    await world.settle();
    const answered = botMessagesTo(world, CUSTOMER).map((o) => String(o.mention_id));
    expect(answered).toContain(during);
    expect(answered).toContain(after);
    expect(answered.indexOf(during)).toBeLessThan(answered.indexOf(after));
  });
});
