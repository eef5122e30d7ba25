import { afterEach, describe, expect, it } from 'vitest';
import { botMessagesTo, callsOf, startHarness, type Harness } from '../../e2e/harness.js';

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

describe('replies go out from the services GET publisher/add lists', () => {
  it('replies from the account profile, asking GET publisher/add once per topic and channel', async () => {
    h = await startHarness();
    fromNextSecond(h);
    await h.say('32470000101', 'hello');
    await h.settle();
    await h.say('32470000102', 'hello');
    await h.settle();
    const first = botMessagesTo(h, '32470000101');
    const second = botMessagesTo(h, '32470000102');
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    for (const sent of [...first, ...second]) expect(sent.services).toEqual([{ type: 'whatsapp', service_id: '3225550100' }]);
    expect(callsOf(h, 'GET', '/publisher/add')).toHaveLength(1);
  });

  it('asks again after a refusal and sends from the profile listed now', async () => {
    h = await startHarness();
    fromNextSecond(h);
    await h.say('32470000103', 'hello');
    await h.settle();
    const profile = h.sim.state.profiles.find((p) => p.type === 'whatsapp')!;
    profile.service_id = '3225550199';
    await h.say('32470000103', 'hello again');
    await h.settle();
    const sent = botMessagesTo(h, '32470000103');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.services).toEqual([{ type: 'whatsapp', service_id: '3225550199' }]);
    expect(callsOf(h, 'GET', '/publisher/add')).toHaveLength(2);
  });
});
