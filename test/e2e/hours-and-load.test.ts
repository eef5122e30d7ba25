import { describe, it, expect, afterEach } from 'vitest';
import { startHarness, botMessagesTo, callsOf, waitFor, CLOSED_MS, OPEN_MS, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('business hours', () => {
  it('tells the customer once when people are back, queues the escalation and releases it at opening time', async () => {
    h = await startHarness({ nowMs: CLOSED_MS });
    await h.say('32470000020', 'hello');
    await h.settle();
    await h.say('32470000020', 'agent');
    await h.settle();
    await h.say('32470000020', 'agent!!');
    await h.settle();
    const away = botMessagesTo(h, '32470000020').filter((m) => /back/i.test(m.message));
    expect(away).toHaveLength(1);
    expect(away[0]!.message).toMatch(/Monday at 09:00/);
    expect(callsOf(h, 'POST', '/inbox/handover/')).toHaveLength(0);
    expect(await h.running.store.listEscalations({ status: 'queued' })).toHaveLength(1);
    // Monday 2026-11-23 09:01 Brussels = 08:01 UTC
    h.setNow(Date.UTC(2026, 10, 23, 8, 1, 0));
    await h.running.bridge.context.hours.refresh();
    expect(await h.running.bridge.reconciler.releaseQueued()).toBe(1);
    await waitFor('the handover at opening time', () => callsOf(h!, 'POST', '/inbox/handover/whatsapp/32470000020').length === 1);
    await waitFor('the escalation open', async () => (await h!.running.store.listEscalations({ status: 'open' })).length === 1);
  });
});

describe('bursts', () => {
  it('answers every customer of a burst exactly once, with timestamp ties and late indexing', async () => {
    h = await startHarness({ nowMs: OPEN_MS });
    await h.control('/_sim/realism', { timestamp_ties: true, indexing_delay_ms: 300 });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(`3247100${String(i).padStart(4, '0')}`);
    await Promise.all(ids.map((id) => h!.say(id, 'hello')));
    await waitFor(
      'every greeting',
      async () => {
        await h!.settle();
        return ids.every((id) => botMessagesTo(h!, id).length >= 1);
      },
      20_000,
    );
    await h.settle();
    for (const id of ids) expect(botMessagesTo(h, id), id).toHaveLength(1);
  });

  it('still answers each message exactly once when the API fails now and then', async () => {
    h = await startHarness({ nowMs: OPEN_MS });
    await h.control('/_sim/faults', { server_error: 0.15, rate_limit: 0.05, reset: 0.05 });
    const ids = Array.from({ length: 12 }, (_, i) => `3247200${String(i).padStart(4, '0')}`);
    for (const id of ids) await h.say(id, 'hello');
    await waitFor(
      'every greeting under faults',
      async () => {
        try {
          await h!.settle();
        } catch {
          // a failed poll is retried on the next round
        }
        return ids.every((id) => botMessagesTo(h!, id).length >= 1);
      },
      30_000,
    );
    await h.control('/_sim/faults', {});
    await h.settle();
    await h.running.bridge.idle();
    for (const id of ids) expect(botMessagesTo(h, id), id).toHaveLength(1);
  });
});
