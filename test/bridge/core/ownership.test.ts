import { describe, expect, it } from 'vitest';
import { GuessReport } from '../../../src/bridge/guess-report.js';
import { Ownership } from '../../../src/bridge/ownership/ownership.js';
import type { BridgeEngage } from '../../../src/bridge/bridge-engage.js';
import { ServerError } from '../../../src/engage/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { FakeClock, FakeEngage, KEY } from './core-harness.js';

const site = { method: 'POST', path: '/1001/handover', status: 503, serviceError: 'server_error', description: 'down' };

function setup(o: { pausedForAll?: boolean } = {}) {
  const clock = new FakeClock();
  const store = createMemoryStore({ clock: clock.now });
  const engage = new FakeEngage();
  const changes: string[] = [];
  const ownership = new Ownership({
    store,
    engage: engage.client() as Pick<BridgeEngage, 'handover'>,
    now: clock.now,
    confirmAgeMs: 30_000,
    pausedForAll: () => o.pausedForAll ?? false,
    onChange: (c) => changes.push(`${c.from}→${c.to}`),
  });
  return { clock, store, engage, ownership, changes };
}

describe('ownership: the service agrees first, then the owner is recorded and audited', () => {
  it('claims a contact nobody was ever handed to, and the bot may speak', async () => {
    const s = setup();
    expect(await s.ownership.botMaySpeak(KEY)).toBe(true);
    expect(s.engage.calls.map((c) => c.what)).toEqual(['handover.get', 'handover.toApplication']);
    expect(await s.ownership.current(KEY)).toBe('bot');
    const [audit] = await s.store.listAudit({ limit: 5 });
    expect(audit).toMatchObject({ action: 'owner unknown → bot: claimed', subject: KEY });
  });

  it('never claims a contact people hold, and the bot stays silent', async () => {
    const s = setup();
    s.engage.owners.set(KEY, 'agents');
    expect(await s.ownership.botMaySpeak(KEY)).toBe(false);
    expect(s.engage.count('handover.toApplication')).toBe(0);
    expect(await s.ownership.current(KEY)).toBe('agents');
  });

  it('never claims a contact whose handover item does not say it was never handed over; counts it, logs once', async () => {
    const s = setup();
    const warned: string[] = [];
    const guesses = new GuessReport({ log: { warn: (_f: unknown, m: string) => warned.push(m), info: () => undefined } });
    const ownership = new Ownership({
      store: s.store,
      engage: { handover: { ...s.engage.client().handover, get: async () => ({ owner: 'agents' as const }) } } as never,
      now: s.clock.now,
      confirmAgeMs: 30_000,
      guesses,
    });
    expect(await ownership.botMaySpeak(KEY)).toBe(false);
    expect(await ownership.botMaySpeak('whatsapp:32470000999')).toBe(false);
    expect(s.engage.count('handover.toApplication')).toBe(0);
    expect(await ownership.current(KEY)).toBe('agents');
    expect(guesses.snapshot().notHeld).toEqual({ 'handover-history': 2 });
    expect(warned).toHaveLength(1);
  });

  it('trusts a fresh owner without asking, and asks again once it is older than the confirm age', async () => {
    const s = setup();
    await s.ownership.botMaySpeak(KEY);
    const asked = s.engage.count('handover.get');
    expect(await s.ownership.botMaySpeak(KEY)).toBe(true);
    expect(s.engage.count('handover.get')).toBe(asked);
    // People took it in the service's tool meanwhile: seen at the next confirmation.
    s.engage.owners.set(KEY, 'agents');
    s.clock.advance(30_001);
    expect(await s.ownership.botMaySpeak(KEY)).toBe(false);
    expect(s.changes).toEqual(['unknown→bot', 'bot→agents']);
  });

  it('a failed handover call records nothing: the owner stays as it was', async () => {
    const s = setup();
    await s.ownership.botMaySpeak(KEY);
    s.engage.failNext('handover.toAgents', new ServerError(site));
    await expect(s.ownership.apply(KEY, { type: 'escalate' }, 'bot', 'asked for a person')).rejects.toThrow(ServerError);
    expect(await s.ownership.current(KEY)).toBe('bot');
    expect(s.changes).toEqual(['unknown→bot']);
  });

  it('a paused contact is never spoken for and only a manager moves it', async () => {
    const s = setup();
    await s.ownership.apply(KEY, { type: 'pause' }, 'manager:ann', 'paused');
    expect(await s.ownership.botMaySpeak(KEY)).toBe(false);
    expect((await s.ownership.apply(KEY, { type: 'human-activity' }, 'agent', 'wrote')).changed).toBe(false);
    expect((await s.ownership.apply(KEY, { type: 'return', by: 'idle' }, 'bridge', 'idle')).changed).toBe(false);
    expect((await s.ownership.apply(KEY, { type: 'return', by: 'manager' }, 'manager:ann', 'back')).to).toBe('bot');
  });

  it('paused for everyone: the bridge claims nothing and gives nothing back by itself', async () => {
    const s = setup({ pausedForAll: true });
    expect(await s.ownership.botMaySpeak(KEY)).toBe(false);
    await s.ownership.confirm(KEY);
    expect(s.engage.count('handover.toApplication')).toBe(0);
    await s.store.updateConversation(KEY, (c) => (c ? { ...c, owner: 'agents' } : undefined));
    expect((await s.ownership.apply(KEY, { type: 'return', by: 'idle' }, 'bridge', 'idle')).changed).toBe(false);
    expect((await s.ownership.apply(KEY, { type: 'return', by: 'manager' }, 'manager:ann', 'back')).changed).toBe(true);
  });

  it('human activity hands the contact to people at once and restarts the idle clock on our own clock', async () => {
    const s = setup();
    await s.ownership.botMaySpeak(KEY);
    s.clock.advance(5_000);
    const change = await s.ownership.apply(KEY, { type: 'human-activity' }, 'agent:bo', 'a person answered');
    expect(change).toMatchObject({ from: 'bot', to: 'agents', changed: true });
    expect(s.engage.count('handover.toAgents')).toBe(1);
    const conv = await s.store.getConversation(KEY);
    expect(conv?.humanSeenAt).toBe(s.clock.now());
    s.clock.advance(5_000);
    await s.ownership.apply(KEY, { type: 'human-activity' }, 'agent:bo', 'again');
    expect(s.engage.count('handover.toAgents')).toBe(1);
    expect((await s.store.getConversation(KEY))?.humanSeenAt).toBe(s.clock.now());
  });
});
