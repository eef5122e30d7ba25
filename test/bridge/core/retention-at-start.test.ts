import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/storage/index.js';
import { waitFor } from '../../support/wait-for.js';
import { FakeClock, KEY, coreWorld, type CoreWorld } from './core-harness.js';

const DAY = 86_400_000;
let world: CoreWorld | undefined;
afterEach(async () => {
  await world?.bridge.stop();
  world = undefined;
});

describe('retention, as the bridge applies it', () => {
  it('deletes what the retention settings no longer allow as soon as the bridge starts, keeping what is recent', async () => {
    const clock = new FakeClock();
    const now = clock.now();
    const store = createMemoryStore({ clock: clock.now, retention: { transcriptDays: 30, surveyDays: 30 } });
    await store.saveConversation({
      key: KEY,
      channel: 'whatsapp',
      serviceId: '32470000501',
      owner: 'bot',
      transcript: [
        { at: now - 40 * DAY, from: 'customer', text: 'an old question' },
        { at: now - DAY, from: 'customer', text: 'a recent one' },
      ],
      updatedAt: now - DAY,
    });
    await store.audit({ at: now - 40 * DAY, actor: 'customer', action: 'survey answer', subject: KEY, result: '{}' });
    await store.audit({ at: now - DAY, actor: 'customer', action: 'survey answer', subject: KEY, result: '{}' });
    world = await coreWorld({ store, clock });
    await world.bridge.start({ poll: false, schedule: true });
    const kept = await waitFor('the transcript to be trimmed', async () => {
      const c = await store.getConversation(KEY);
      return c && c.transcript.length === 1 ? c : undefined;
    });
    expect(kept.transcript[0]?.text).toBe('a recent one');
    await waitFor('the old survey answer to go', async () => (await store.listAudit()).length === 1);
    expect((await store.listAudit())[0]?.at).toBe(now - DAY);
  });
});
