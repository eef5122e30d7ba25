import { readdir, readlink, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ColdShardFiles } from '../../src/storage/cold-shard-files.js';
import { openFileStore } from '../../src/storage/index.js';
import { conversation, T0 } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const HOUR = 60 * 60 * 1000;

/** This process's open files inside the data directory's conversations shards. */
async function openShardFiles(dataDir: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(join(dataDir, 'conversations'))) count += 1;
  }
  return count;
}

// A pass over thousands of cold conversations reads each shard file many times: it is opened once and kept open
// for a moment, and a file a snapshot renamed over it is opened again.
describe('snapshot shard files kept open for cold reads', () => {
  const tempDir = useTempDirs();

  it('are opened once for consecutive reads, again once forgotten, and closed by closeAll', async () => {
    const dir = await tempDir();
    const path = join(dir, '00.jsonl');
    await writeFile(path, 'first\n');
    const files = new ColdShardFiles();
    const first = await files.with(path, async (handle) => handle);
    const again = await files.with(path, async (handle) => handle);
    expect(again).toBe(first);
    expect((await first.read(Buffer.alloc(5), 0, 5, 0)).buffer.toString()).toBe('first');

    // A new file renamed over the open one: the kept handle still reads the old one until it is forgotten.
    await writeFile(`${path}.next`, 'second\n');
    await rename(`${path}.next`, path);
    expect(await files.with(path, async (handle) => (await handle.read(Buffer.alloc(5), 0, 5, 0)).buffer.toString())).toBe('first');
    files.forget(path);
    const fresh = await files.with(path, async (handle) => handle);
    expect(fresh).not.toBe(first);
    expect((await fresh.read(Buffer.alloc(6), 0, 6, 0)).buffer.toString()).toBe('second');

    files.closeAll();
    await expect.poll(() => fresh.fd).toBe(-1);
    await expect(files.with(join(dir, 'missing.jsonl'), async () => 1)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('still give the right records after snapshots moved their lines, and a closed store keeps none open', async () => {
    const dataDir = await tempDir();
    const clock = { now: T0 };
    const seeding = await openFileStore({ dataDir, clock: () => clock.now });
    for (let i = 0; i < 200; i++) await seeding.saveConversation(conversation(String(i), { contactName: `Customer ${i}` }));
    await seeding.close();
    clock.now = T0 + HOUR;
    const store = await openFileStore({ dataDir, clock: () => clock.now });
    expect(store.stats().coldConversations).toBe(200);
    const names = new Map(Array.from({ length: 200 }, (_, i) => [`whatsapp:${i}`, `Customer ${i}`]));
    for (let round = 0; round < 3; round++) {
      // Every cold record read (its shard file kept open)...
      for (const [key, name] of names) expect((await store.getConversation(key))?.contactName).toBe(name);
      // ...then some of them grow, so a snapshot moves the lines after them in their new shard files.
      for (let i = round; i < 200; i += 10) {
        const name = `Customer ${i} ${'renamed '.repeat(round + 1)}`;
        await store.updateConversation(`whatsapp:${i}`, (c) => c && { ...c, contactName: name });
        names.set(`whatsapp:${i}`, name);
      }
      await (store as unknown as { persistAll(): Promise<void> }).persistAll();
      expect(store.stats().coldConversations).toBe(200);
      const visited = new Map<string, string | undefined>();
      await store.eachConversation({}, (c) => void visited.set(c.key, c.contactName));
      expect(visited).toEqual(names);
    }
    expect(await openShardFiles(dataDir)).toBeGreaterThan(0);
    await store.close();
    await expect.poll(() => openShardFiles(dataDir)).toBe(0);
  });
});
