import { describe, expect, it } from 'vitest';
import type { BridgeContext } from '../../../src/bridge/bridge-context.js';
import { MentionRecheck, RECHECK_FOR_MS, recheckRecent } from '../../../src/bridge/intake/poller-recheck.js';
import { AuthError, type Mention } from '../../../src/engage/index.js';
import { silentLogger } from '../../../src/log.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { waitFor } from '../../support/wait-for.js';

describe('a pass reading recent customer mentions again', () => {
  it('has every read of the pass in flight at once, and records what each brought', async () => {
    const nowMs = 1_000_000;
    const store = createMemoryStore({ clock: () => nowMs });
    const waiting: Array<() => void> = [];
    let inFlight = 0;
    const engage = {
      mentions: {
        get: async (ref: { topicId: string; id: string }) => {
          inFlight += 1;
          await new Promise<void>((go) => waiting.push(go));
          inFlight -= 1;
          return { id: ref.id, topic_id: ref.topicId } as unknown as Mention;
        },
      },
    };
    const ctx = { engage, now: () => nowMs, log: silentLogger(), settings: {}, store } as unknown as Pick<
      BridgeContext,
      'engage' | 'now' | 'log' | 'settings' | 'store'
    >;
    const recheck = new MentionRecheck();
    for (let i = 0; i < 5; i++) recheck.watch({ topicId: '2001', id: String(9001 + i), key: `whatsapp:3247000070${i}`, addedAt: 1 }, nowMs);
    const ingested: string[] = [];
    const pass = recheckRecent(ctx, recheck, { count: () => undefined, ingest: async (m) => (ingested.push(String(m.id)), 1) });
    await waitFor('five reads in flight together', () => inFlight === 5);
    for (const go of waiting.splice(0)) go();
    expect(await pass).toBe(5);
    expect(ingested.sort()).toEqual(['9001', '9002', '9003', '9004', '9005']);
    await store.close();
  });

  it('when one read finds the token refused, the pass fails only after the other reads ended (none writes after it)', async () => {
    const nowMs = 1_000_000;
    const store = createMemoryStore({ clock: () => nowMs });
    let release = (): void => undefined;
    let holding = false;
    const engage = {
      mentions: {
        get: async (ref: { topicId: string; id: string }) => {
          if (ref.id === '9001') throw new AuthError({ method: 'GET', path: '/1001/inbox/mention', status: 401 });
          await new Promise<void>((go) => {
            release = go;
            holding = true;
          });
          return { id: ref.id, topic_id: ref.topicId } as unknown as Mention;
        },
      },
    };
    const ctx = { engage, now: () => nowMs, log: silentLogger(), settings: {}, store } as unknown as Pick<
      BridgeContext,
      'engage' | 'now' | 'log' | 'settings' | 'store'
    >;
    const recheck = new MentionRecheck();
    for (let i = 0; i < 2; i++) recheck.watch({ topicId: '2001', id: String(9001 + i), key: `whatsapp:3247000070${i}`, addedAt: 1 }, nowMs);
    const ingested: string[] = [];
    let settled = false;
    const pass = recheckRecent(ctx, recheck, { count: () => undefined, ingest: async (m) => (ingested.push(String(m.id)), 1) });
    pass.then(
      () => (settled = true),
      () => (settled = true),
    );
    await waitFor('the second read to be in flight', () => holding);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    release();
    await expect(pass).rejects.toBeInstanceOf(AuthError);
    expect(ingested).toEqual(['9002']);
    await store.close();
  });
});

describe('the watched mentions, by topic and id', () => {
  it('name the contact of the latest watched mention only: a newer one, a forgotten contact or an expired watch no longer does', () => {
    const recheck = new MentionRecheck();
    recheck.watch({ topicId: '2001', id: '9001', key: 'whatsapp:32470000701', addedAt: 1 }, 0);
    recheck.watch({ topicId: '2002', id: '9001', key: 'whatsapp:32470000702', addedAt: 1 }, 0);
    expect(recheck.keyOf('2001', '9001')).toBe('whatsapp:32470000701');
    expect(recheck.keyOf('2002', '9001')).toBe('whatsapp:32470000702');
    recheck.watch({ topicId: '2001', id: '9002', key: 'whatsapp:32470000701', addedAt: 2 }, 0);
    // An older mention of the contact leaves the newer one watched.
    recheck.watch({ topicId: '2001', id: '9000', key: 'whatsapp:32470000701', addedAt: 0 }, 0);
    expect(recheck.keyOf('2001', '9001')).toBeUndefined();
    expect(recheck.keyOf('2001', '9000')).toBeUndefined();
    expect(recheck.keyOf('2001', '9002')).toBe('whatsapp:32470000701');
    recheck.forget('whatsapp:32470000701');
    expect(recheck.keyOf('2001', '9002')).toBeUndefined();
    recheck.due(RECHECK_FOR_MS + 1);
    expect(recheck.keyOf('2002', '9001')).toBeUndefined();
    expect(recheck.size).toBe(0);
  });
});
