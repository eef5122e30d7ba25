import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileStore } from '../../src/storage/index.js';
import { conversation, T0 } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const HOUR = 60 * 60 * 1000;

// Conversations untouched for a while leave memory (only owner, date and where the line is stay) and
// are read from the snapshot's shard file when asked for: every intent must behave as if they were in memory.
describe('cold conversations of the file store', () => {
  const tempDir = useTempDirs();

  async function seeded(count: number): Promise<{ dataDir: string; clock: { now: number } }> {
    const dataDir = await tempDir();
    const clock = { now: T0 };
    const store = await openFileStore({ dataDir, clock: () => clock.now });
    for (let i = 0; i < count; i++) {
      await store.saveConversation(conversation(String(i), { owner: i % 3 === 0 ? 'agents' : 'bot', contactName: `Customer ${i} ✓` }));
    }
    await store.close();
    clock.now = T0 + HOUR;
    return { dataDir, clock };
  }

  it('reads, lists, counts, updates and archives conversations left on disk, across snapshots', async () => {
    const { dataDir, clock } = await seeded(600);
    const store = await openFileStore({ dataDir, clock: () => clock.now });
    expect(store.stats()).toMatchObject({ conversations: 600, coldConversations: 600 });
    expect(await store.getConversation('whatsapp:7')).toEqual(conversation('7', { contactName: 'Customer 7 ✓' }));
    expect(await store.countByOwner()).toMatchObject({ agents: 200, bot: 400, archived: 0 });
    const agents = await store.listConversations({ owner: 'agents' });
    expect(agents).toHaveLength(200);
    expect(agents.every((c) => c.owner === 'agents')).toBe(true);
    const visited: string[] = [];
    expect(await store.eachConversation({ owner: 'agents' }, (c) => void visited.push(c.key))).toBe(200);
    expect(visited.sort()).toEqual(agents.map((c) => c.key).sort());
    expect((await store.listConversations({ owner: 'bot', newest: 5 })).map((c) => c.owner)).toEqual(Array(5).fill('bot'));
    expect(store.stats().coldConversations).toBe(600);
    const updated = await store.updateConversation('whatsapp:3', (c) => c && { ...c, owner: 'bot', updatedAt: clock.now });
    expect(updated?.owner).toBe('bot');
    expect(await store.countByOwner()).toMatchObject({ agents: 199, bot: 401 });
    expect(store.stats().coldConversations).toBe(599);
    // A snapshot rewrites the shards holding changed conversations, moving the cold lines beside them.
    for (let i = 0; i < 300; i++) await store.saveConversation(conversation(String(1000 + i), { updatedAt: clock.now }));
    await store.close();

    clock.now = T0 + 2 * HOUR;
    const reopened = await openFileStore({ dataDir, clock: () => clock.now });
    expect(reopened.stats()).toMatchObject({ conversations: 900, coldConversations: 900 });
    expect(await reopened.getConversation('whatsapp:3')).toMatchObject({ owner: 'bot', updatedAt: T0 + HOUR });
    for (const id of ['0', '7', '599', '1000', '1299']) expect((await reopened.getConversation(`whatsapp:${id}`))?.serviceId).toBe(id);
    expect((await reopened.listConversations()).length).toBe(900);
    expect(await reopened.archiveInactive(T0 + 1)).toBe(599);
    expect(await reopened.getConversation('whatsapp:8')).toEqual(conversation('8', { contactName: 'Customer 8 ✓' }));
    expect(await reopened.countByOwner()).toMatchObject({ archived: 599 });
    await reopened.close();
  });

  it('records a decision on a conversation left on disk: the record and its effects in one journal record', async () => {
    const { dataDir, clock } = await seeded(50);
    const store = await openFileStore({ dataDir, clock: () => clock.now });
    expect(store.stats().coldConversations).toBe(50);
    const recorded = await store.recordDecision({
      contactKey: 'whatsapp:7',
      decidedKey: '2001/9:decision',
      update: (c) => c && { ...c, dialog: { step: 'asked' }, updatedAt: clock.now },
      effects: [{ key: '2001/9:1:reply', kind: 'reply', payload: { text: 'Hi!' } }],
    });
    expect(recorded.conversation).toMatchObject({ contactName: 'Customer 7 ✓', dialog: { step: 'asked' } });
    expect(store.stats().coldConversations).toBe(49);
    const [journal] = (await readdir(dataDir)).filter((name) => name.startsWith('journal-'));
    const last = JSON.parse((await readFile(join(dataDir, journal!), 'utf8')).trimEnd().split('\n').at(-1)!) as Record<
      string,
      Array<[string]>
    >;
    expect(last.conversations?.map(([key]) => key)).toEqual(['whatsapp:7']);
    expect(last.outbox?.map(([key]) => key).sort()).toEqual(['2001/9:1:reply', '2001/9:decision']);
    await store.close();
    const reopened = await openFileStore({ dataDir, clock: () => clock.now });
    expect((await reopened.getConversation('whatsapp:7'))?.dialog).toEqual({ step: 'asked' });
    expect((await reopened.pendingEffects()).map((e) => e.key)).toEqual(['2001/9:1:reply']);
    await reopened.close();
  });

  it('gives the right record when a read races a snapshot that moves the line', async () => {
    const { dataDir, clock } = await seeded(300);
    const store = await openFileStore({ dataDir, clock: () => clock.now });
    expect(store.stats().coldConversations).toBe(300);
    const keys = Array.from({ length: 300 }, (_, i) => `whatsapp:${i}`);
    // Every shard changes, then reads go on while the snapshot of close() rewrites them all.
    for (let i = 0; i < 300; i++) await store.saveConversation(conversation(String(2000 + i), { updatedAt: clock.now }));
    const persistAll = (store as unknown as { persistAll(): Promise<void> }).persistAll();
    const reads = await Promise.all(keys.map((key) => store.getConversation(key)));
    await persistAll;
    expect(reads.map((record) => record?.key)).toEqual(keys);
    const again = await Promise.all(keys.map((key) => store.getConversation(key)));
    expect(again.map((record) => record?.key)).toEqual(keys);
    await store.close();
  });
});
