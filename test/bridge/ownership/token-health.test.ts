import { describe, expect, it } from 'vitest';
import { accessAccepted, tokenRefused } from '../../../src/bridge/ownership/token-health.js';
import { silentLogger } from '../../../src/log.js';
import { createMemoryStore } from '../../../src/storage/index.js';

function world() {
  const store = createMemoryStore({ clock: () => 1_000 });
  const woken: string[] = [];
  const told: string[] = [];
  const ctx = {
    store,
    log: silentLogger(),
    health: { revoked: false } as { revoked: boolean },
    now: () => 1_000,
    wake: (key: string) => void woken.push(key),
    notifier: { tokenRevoked: () => void told.push('revoked') },
  };
  return { store, ctx, woken, told };
}

describe('the token refused, then accepted again', () => {
  it('is announced once however many calls are refused', () => {
    const w = world();
    tokenRefused(w.ctx as never);
    tokenRefused(w.ctx as never);
    expect(w.ctx.health.revoked).toBe(true);
    expect(w.told).toEqual(['revoked']);
  });

  it('resumes at once and wakes the contacts held only by the refusal, not those waiting for their own retry time', async () => {
    const w = world();
    await w.store.enqueueEffect({ key: 'a:reply', kind: 'reply', contactKey: 'whatsapp:1', payload: {} });
    await w.store.enqueueEffect({ key: 'b:reply', kind: 'reply', contactKey: 'whatsapp:2', payload: {} });
    await w.store.failEffect('b:reply', 'rate limited', 60_000);
    // Its retry time passed while the refusal held it: it goes on too.
    await w.store.enqueueEffect({ key: 'c:reply', kind: 'reply', contactKey: 'whatsapp:3', payload: {} });
    await w.store.failEffect('c:reply', 'no answer', 500);
    tokenRefused(w.ctx as never);
    await accessAccepted(w.ctx as never);
    expect(w.ctx.health.revoked).toBe(false);
    expect(w.woken).toEqual(['whatsapp:1', 'whatsapp:3']);
    // Accepted again while not refused: nothing to do.
    await accessAccepted(w.ctx as never);
    expect(w.woken).toEqual(['whatsapp:1', 'whatsapp:3']);
  });
});
