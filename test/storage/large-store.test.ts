import { describe, expect, it } from 'vitest';
import { openFileStore } from '../../src/storage/index.js';
import { conversation, T0 } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const COUNT = 50_000;
const DAY = 24 * 60 * 60 * 1000;

function contact(i: number): ReturnType<typeof conversation> {
  return conversation(String(32470000000 + i), {
    owner: i % 10 === 1 ? 'agents' : 'bot',
    dialog: { step: `s${i % 7}` },
    updatedAt: i % 2 === 0 ? T0 - 60 * DAY : T0,
  });
}

// Correctness only: the timings of the same scenario are measured by bench/store-bench.ts.
describe('the file store with 50,000 conversations', () => {
  const tempDir = useTempDirs();

  it('keeps every conversation across restarts, hot and archived', { timeout: 60_000 }, async () => {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir, clock: () => T0 });
    for (let i = 0; i < COUNT; i += 1) await store.saveConversation(contact(i));
    await store.close();

    const reopened = await openFileStore({ dataDir, clock: () => T0 });
    expect(await reopened.countByOwner()).toEqual({ bot: 45_000, agents: 5_000, paused: 0, unknown: 0, archived: 0 });
    for (const i of [0, 1, 4242, COUNT - 1]) expect(await reopened.getConversation(contact(i).key)).toEqual(contact(i));
    expect(await reopened.archiveInactive()).toBe(COUNT / 2);
    await reopened.close();

    const third = await openFileStore({ dataDir, clock: () => T0 });
    expect(await third.countByOwner()).toMatchObject({ archived: COUNT / 2 });
    expect((await third.listConversations({ owner: 'agents' })).length).toBe(5_000);
    expect(await third.countByOwner()).toEqual({ bot: 20_000, agents: 5_000, paused: 0, unknown: 0, archived: COUNT / 2 });
    for (const i of [0, 4242, 4243]) expect(await third.getConversation(contact(i).key)).toEqual(contact(i));
    await third.close();
  });
});
