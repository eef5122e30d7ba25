import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, ServerError, type MentionListQuery } from '../../src/engage/index.js';
import { botMessagesTo, startHarness, type Harness } from './harness.js';

const SECRET = 'hook-secret-of-at-least-32-characters';

/** Both messages got the bot's answer, the earlier one's first. */
function expectAnsweredInOrder(world: Harness, customer: string, earlier: string, later: string): void {
  const answered = botMessagesTo(world, customer).map((o) => String(o.mention_id));
  expect(answered).toContain(earlier);
  expect(answered).toContain(later);
  expect(answered.indexOf(earlier)).toBeLessThan(answered.indexOf(later));
}
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
    expectAnsweredInOrder(world, CUSTOMER, during, after);
  });
  // Chaos at 21:49 on 2026-11-23: the poll's position at the restart was the second of its newest mention read, and
  // the outage's message was dated in that same second (on the next page, or written after the read). A message
  // pushed after the restart and dated in that second was decided at once, ahead of the outage's: answered out of
  // order. A position says only that what is dated before it was read, unless its read went through the list.
  // The bridge's clock is frozen: on a busy machine a second passes during the settle and the restart, and the
  // outage's message, dated a later second, would no longer test the same second.
  it("holds a message dated in the second of the poll's position until the poll has read that second through", async () => {
    const world = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: SECRET }, frozenClock: true });
    h = world;
    const customer = '32470000781';
    const hook = () => world.control('/_sim/webhooks', { url: `${world.running.http.url}/webhooks/engage/${SECRET}` });
    await hook();
    const hello = await world.say(customer, 'hello');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    await world.settle(); // the poll reads the greeting's second: its position is that second
    expect(botMessagesTo(world, customer)).toHaveLength(1);
    let during = '';
    await world.restart(async () => {
      await world.control('/_sim/webhooks', {});
      during = await world.say(customer, 'where is my order'); // the same second: the clock has not moved
    });
    await hook();
    const after = await world.say(customer, 'thanks');
    const dated = (id: string) => world.sim.state.mentions.get(id)?.added;
    expect([dated(during), dated(after)]).toEqual([dated(hello), dated(hello)]); // the case's premise
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    // Pushed at once, and dated in the second of the poll's position; the outage's message is not read yet.
    expect(botMessagesTo(world, customer)).toHaveLength(1);
    world.advance(2_000);
    await world.settle();
    await world.settle();
    expectAnsweredInOrder(world, customer, during, after);
  });

  // An agent answers the outage's message in the service's tool (a reply action dated after the restart): the bot
  // must know of it before it decides that message. Held with the customer's messages, it came too late.
  for (const webhook of [true, false]) {
    it(`takes in an agent's reply to the outage's message before deciding that message (${webhook ? 'webhook' : 'polling alone'})`, async () => {
      // Frozen: the agent's mention must stay unlisted (10 s late) through the 9 s below; on a running clock a second
      // of a busy machine's time listed it, and the poll then read the reply instead of the case's path.
      const world = await startHarness({ env: webhook ? { BRIDGE_WEBHOOK_SECRET: SECRET } : {}, frozenClock: true });
      h = world;
      const customer = webhook ? '32470000778' : '32470000779';
      await world.control('/_sim/realism', { late_indexing_seconds: 10 });
      const hook = async () => {
        if (webhook) await world.control('/_sim/webhooks', { url: `${world.running.http.url}/webhooks/engage/${SECRET}` });
      };
      await hook();
      await world.say(customer, 'hello');
      await world.sim.webhooks.idle();
      world.advance(11_000);
      await world.settle();
      expect(botMessagesTo(world, customer)).toHaveLength(1);
      world.advance(11_000);
      await world.settle();
      await world.restart(async () => {
        await world.control('/_sim/webhooks', {});
        world.advance(1_000);
        await world.say(customer, 'where is my order');
        world.advance(1_000);
      });
      await hook();
      world.advance(2_000);
      const repliedAt = Math.floor(world.now() / 1000);
      await world.control('/_sim/agent/reply', { channel: 'whatsapp', service_id: customer, text: 'Bob here, let me check.' });
      await world.sim.webhooks.idle();
      await world.running.bridge.idle();
      world.advance(9_000); // the outage's message is listed now; the agent's own mention not yet
      expect(Math.floor(world.now() / 1000) - repliedAt).toBeLessThan(10); // the case's premise
      await world.settle();
      await world.settle();
      expect(botMessagesTo(world, customer)).toHaveLength(1);
    });
  }

  it('starts even when the service fails at the restart (the topics cannot be listed)', async () => {
    const world = await startHarness();
    h = world;
    await world.say('32470000901', 'hello');
    world.advance(2_000);
    await world.settle();
    let err: unknown;
    try {
      await world.restart(async () => {
        await world.control('/_sim/faults', { server_error: 1 });
      });
    } catch (e) {
      err = e;
    }
    await world.control('/_sim/faults', {});
    expect((err as Error | undefined)?.message).toBeUndefined();
  }, 60_000);

  it('waits at most its bound when the poll cannot read: a held message is answered then', async () => {
    const world = await startHarness({ env: { BRIDGE_WEBHOOK_SECRET: SECRET } });
    h = world;
    const customer = '32470000780';
    const hook = () => world.control('/_sim/webhooks', { url: `${world.running.http.url}/webhooks/engage/${SECRET}` });
    await hook();
    await world.say(customer, 'hello');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    world.advance(2_000);
    await world.settle();
    expect(botMessagesTo(world, customer)).toHaveLength(1);
    await world.restart(async () => {
      world.advance(5_000);
    });
    await hook();
    // The mentions list fails from now on (a transient fault); replies still go out.
    const { mentions } = world.running.bridge.context.engage;
    (mentions as { listPages: unknown }).listPages = (_q: MentionListQuery = {}) =>
      (async function* () {
        yield* [];
        throw new ServerError({ method: 'GET', path: '/1001/inbox/mentions', status: 503, description: 'injected' });
      })();
    world.advance(1_000);
    await world.say(customer, 'where is my order');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    expect(botMessagesTo(world, customer)).toHaveLength(1); // held: the poll has not read it
    for (let i = 0; i < 3; i++) {
      world.advance(30_000);
      await world.running.bridge.poller.pollOnce();
      await world.running.bridge.idle();
    }
    expect(botMessagesTo(world, customer)).toHaveLength(2);
  });

  it("keeps each topic's read position: one topic read past the restart does not release another's messages", async () => {
    const world = await startHarness({ env: { ENGAGE_TOPIC_IDS: '2001,2002', BRIDGE_WEBHOOK_SECRET: SECRET } });
    h = world;
    const customer = '+3200000091';
    world.sim.state.topics.set(2002, { id: 2002, name: 'Sales' });
    world.advance(120_000);
    await world.settle(); // 2002's baseline
    const sayIn = async (topic: number, id: string, text: string) =>
      (
        (await world.control('/_sim/inbound', { channel: 'whatsapp', author: { id, name: 'Ann' }, text, topic_id: topic })) as {
          id: string;
        }
      ).id;
    const hook = () => world.control('/_sim/webhooks', { url: `${world.running.http.url}/webhooks/engage/${SECRET}` });
    await hook();
    await sayIn(2002, customer, 'hello');
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    world.advance(2_000);
    await world.settle();
    expect(botMessagesTo(world, customer)).toHaveLength(1);
    let during = '';
    await world.restart(async () => {
      await world.control('/_sim/webhooks', {});
      world.advance(1_000);
      during = await sayIn(2002, customer, 'where is my order');
      world.advance(1_000);
    });
    await hook();
    // The joint read is refused (each topic is read alone then), and topic 2002's own read fails once.
    const { mentions } = world.running.bridge.context.engage;
    const real = mentions.listPages.bind(mentions);
    let topicFailed = false;
    (mentions as { listPages: typeof real }).listPages = (q: MentionListQuery = {}, o = {}) =>
      (async function* () {
        const ids = (q.topicIds ?? []).map(String);
        if (ids.length > 1)
          throw new InvalidParameterError({ method: 'GET', path: '/1001/inbox/mentions', status: 400, description: 'refused' });
        if (ids[0] === '2002' && !topicFailed) {
          topicFailed = true;
          throw new ServerError({ method: 'GET', path: '/1001/inbox/mentions', status: 503, description: 'injected' });
        }
        yield* real(q, o);
      })();
    world.advance(1_000);
    await sayIn(2001, '+3200000092', 'hi'); // the other topic moves on
    const after = await sayIn(2002, customer, 'thanks'); // pushed at once
    await world.sim.webhooks.idle();
    await world.running.bridge.idle();
    await world.settle();
    world.advance(5_000); // past topic 2002's backoff, well inside the gap's bound
    await world.settle();
    await world.settle();
    expectAnsweredInOrder(world, customer, during, after);
  });
});
