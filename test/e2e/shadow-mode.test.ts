import { describe, it, expect, afterEach } from 'vitest';
import { runCliCommand } from '../../src/commands/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const writes = (x: Harness) => x.requests().filter((r) => r.method !== 'GET' && !r.path.startsWith('/_sim'));

describe('shadow mode (BRIDGE_MODE=shadow)', () => {
  it('reads and decides but no write call reaches the service, and the tally says what it would have done', async () => {
    h = await startHarness({ env: { BRIDGE_MODE: 'shadow' } });
    // Slack's notices: none may ask people to take a contact nobody handed them.
    const notices: string[] = [];
    h.running.bridge.setNotifier({ escalated: (n) => notices.push(n.contactKey), bridgePaused: () => notices.push('paused') });
    // A new customer (the bot would claim and greet), then one who asks for a person (it would escalate).
    await h.say('32470000101', 'hello');
    await h.settle();
    await h.say('32470000101', 'I want to talk to a human');
    await h.settle();
    // A contact people took in the tool: the bot must not claim it, even in thought.
    await h.control('/_sim/handover', { channel: 'whatsapp', service_id: '32470000102', owner: 'agents' });
    await h.say('32470000102', 'hello again');
    await h.settle();

    expect(writes(h)).toEqual([]);
    expect(h.outbound()).toEqual([]);
    expect(notices).toEqual([]);
    const shadow = (await h.running.bridge.control.health()).shadow;
    expect(shadow?.wouldAnswer).toBeGreaterThanOrEqual(2);
    expect(shadow?.wouldEscalate).toEqual({ explicit_request: 1 });
    expect(shadow?.wouldClaim).toBe(1);
    expect(shadow?.wouldClaimFromPeople).toBe(0);
    expect(shadow?.sample.every((r) => r.contactKey === 'whatsapp:32470000101')).toBe(true);

    const answer = await runCliCommand('shadow', h.running.commandDeps);
    expect(answer.output).toContain('nothing was sent, claimed or updated');
    expect(answer.output).toMatch(/Would escalate: 1 \(explicit_request 1\)/);
    expect(answer.output).toContain('from people: 0 (must be 0)');
    expect(answer.output).toContain('to whatsapp/32470000101: ');
    const status = await runCliCommand('status', h.running.commandDeps);
    expect(status.output).toMatch(/Mode: shadow .* would have claimed from people 0/);
    const metrics = await (await fetch(`${h.running.http.url}/metrics`)).text();
    expect(metrics).toContain('engage_bridge_mode{mode="shadow"} 1');
  });

  it.each([{ handover_date_hidden: true }, { echo_author_anonymous: true }, { handover_404_new_contacts: true }, { thread_id_root: true }])(
    'under the guess option %o it still writes nothing and claims nothing from people',
    async (realism) => {
      h = await startHarness({ env: { BRIDGE_MODE: 'shadow' }, realism });
      await h.say('32470000111', 'hello');
      await h.settle();
      await h.control('/_sim/handover', { channel: 'whatsapp', service_id: '32470000112', owner: 'agents' });
      await h.say('32470000112', 'hello');
      await h.settle();
      await h.say('32470000111', 'I want to talk to a human');
      await h.settle();
      expect(writes(h)).toEqual([]);
      const shadow = (await h.running.bridge.control.health()).shadow;
      expect(shadow?.wouldClaimFromPeople).toBe(0);
      expect(shadow?.sample.some((r) => r.contactKey === 'whatsapp:32470000112')).toBe(false);
    },
  );

  it('a live bridge says so when asked for the shadow tally, and its metrics carry the mode', async () => {
    h = await startHarness();
    const answer = await runCliCommand('shadow', h.running.commandDeps);
    expect(answer.output).toContain('The bridge runs live');
    const metrics = await (await fetch(`${h.running.http.url}/metrics`)).text();
    expect(metrics).toContain('engage_bridge_mode{mode="live"} 1');
  });
});
