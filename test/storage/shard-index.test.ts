import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isStoreError, openFileStore } from '../../src/storage/index.js';
import type { ConversationRecord, Store } from '../../src/storage/index.js';
import { CURRENT_SCHEMA_VERSION } from '../../src/storage/hot-state.js';
import { conversationSchema } from '../../src/storage/records.js';
import { conversation, T0 } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const HOUR = 60 * 60 * 1000;
const COUNT = 300;

// Each conversations shard of a snapshot has an index beside it (key, owner, date, byte range, and the digest of the
// shard's bytes): the open places its lines from there without parsing them, and decodes line by line whenever the
// index is missing or does not describe exactly the bytes of the shard.
describe('the index of a conversations shard', () => {
  const tempDir = useTempDirs();
  afterEach(() => vi.restoreAllMocks());
  const clock = { now: T0 };
  const open = (dataDir: string): Promise<Store> => openFileStore({ dataDir, clock: () => clock.now });

  /** Half of them cold at `T0 + HOUR` (untouched since T0), half recent; a few archived. */
  function record(i: number, updatedAt = i % 2 === 0 ? T0 : T0 + HOUR - 60_000): ConversationRecord {
    return conversation(String(i), { owner: i % 3 === 0 ? 'agents' : 'bot', contactName: `Customer ${i} ✓`, updatedAt });
  }

  async function seeded(): Promise<string> {
    const dataDir = await tempDir();
    clock.now = T0 + HOUR - 60_000;
    const store = await open(dataDir);
    for (let i = 0; i < COUNT; i++) await store.saveConversation(record(i));
    expect(await store.archiveInactive(T0 + 1)).toBe(COUNT / 2);
    for (let i = 0; i < 10; i += 2) await store.saveConversation(record(i));
    await store.close();
    clock.now = T0 + HOUR;
    return dataDir;
  }

  async function expectAll(store: Store): Promise<void> {
    expect(store.stats()).toMatchObject({ conversations: COUNT / 2 + 5, coldConversations: 5 });
    expect(await store.countByOwner()).toMatchObject({ archived: COUNT / 2 - 5 });
    for (const i of [0, 1, 2, 3, 8, 11, 298, 299]) expect(await store.getConversation(`whatsapp:${i}`)).toEqual(record(i));
  }

  const shardPath = async (dataDir: string, withLines: number): Promise<string> => {
    for (const name of (await readdir(join(dataDir, 'conversations'))).sort()) {
      const path = join(dataDir, 'conversations', name);
      if (name.endsWith('.jsonl') && (await readFile(path, 'utf8')).split('\n').filter(Boolean).length >= withLines) return path;
    }
    throw new Error('no such shard');
  };
  /** The shard with the most conversations (not archived markers) on it. */
  const fullestShard = async (dataDir: string): Promise<string> => {
    let best = { path: '', live: -1 };
    for (const name of (await readdir(join(dataDir, 'conversations'))).filter((name) => name.endsWith('.jsonl'))) {
      const path = join(dataDir, 'conversations', name);
      const live = (await readFile(path, 'utf8')).split('\n').filter((line) => line.startsWith('{"key"')).length;
      if (live > best.live) best = { path, live };
    }
    return best.path;
  };
  const indexOf = (shard: string) => shard.replace(/\.jsonl$/, '.index');

  it('places every line of a snapshot from the indexes, parsing none of them', async () => {
    const dataDir = await seeded();
    const checks = vi.spyOn(conversationSchema, 'safeParse');
    const store = await open(dataDir);
    expect(checks).not.toHaveBeenCalled();
    await expectAll(store);
    await store.close();
  });

  it('refuses a damaged byte in a shard whose index is valid, naming the file and the line', async () => {
    const dataDir = await seeded();
    const path = await shardPath(dataDir, 2);
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[1] = `[${lines[1]!.slice(1)}`;
    await writeFile(path, lines.join('\n'));
    const error = await open(dataDir).catch((caught: unknown) => caught);
    expect(isStoreError(error, 'corrupt')).toBe(true);
    expect((error as Error).message).toContain(`${path} line 2`);
  });

  it('decodes a shard without its index line by line, and the next snapshot writes the index again', async () => {
    const dataDir = await seeded();
    const path = await shardPath(dataDir, 2);
    const index = await readFile(indexOf(path), 'utf8');
    await rm(indexOf(path));
    const checks = vi.spyOn(conversationSchema, 'safeParse');
    const store = await open(dataDir);
    expect(checks).toHaveBeenCalled();
    await expectAll(store);
    await store.close();
    expect(await readFile(indexOf(path), 'utf8')).toBe(index);
    checks.mockClear();
    await (await open(dataDir)).close();
    expect(checks).not.toHaveBeenCalled();
  });

  it('ignores an index that is damaged itself', async () => {
    const dataDir = await seeded();
    const path = await shardPath(dataDir, 2);
    const index = await readFile(indexOf(path), 'utf8');
    // Still valid JSON, so only the index's own digest can tell.
    await writeFile(
      indexOf(path),
      index.replace(/,(\d)(\d*)\]/, (_all, first: string, rest: string) => `,${(Number(first) + 1) % 10}${rest}]`),
    );
    const checks = vi.spyOn(conversationSchema, 'safeParse');
    const store = await open(dataDir);
    expect(checks).toHaveBeenCalled();
    await expectAll(store);
    await store.close();
  });

  it('ignores an index that cannot be read: the index is derived data, the shard is read line by line', async () => {
    const dataDir = await seeded();
    const path = await shardPath(dataDir, 2);
    await rm(indexOf(path));
    await mkdir(indexOf(path)); // read as a file: EISDIR
    const checks = vi.spyOn(conversationSchema, 'safeParse');
    const store = await open(dataDir);
    expect(checks).toHaveBeenCalled();
    await expectAll(store);
    // The closing snapshot could not rename a new index over a directory (a write refused is the right answer there).
    await rm(indexOf(path), { recursive: true });
    await store.close();
  });

  it('ignores an index written under another store schema: its lines are checked again', async () => {
    const dataDir = await seeded();
    const path = await shardPath(dataDir, 2);
    const index = await readFile(indexOf(path), 'utf8');
    const newline = index.indexOf('\n');
    const header = JSON.parse(index.slice(0, newline)) as { schema: number };
    expect(header.schema).toBe(CURRENT_SCHEMA_VERSION);
    await writeFile(indexOf(path), `${JSON.stringify({ ...header, schema: CURRENT_SCHEMA_VERSION - 1 })}${index.slice(newline)}`);
    const checks = vi.spyOn(conversationSchema, 'safeParse');
    const store = await open(dataDir);
    expect(checks).toHaveBeenCalled();
    await expectAll(store);
    await store.close();
  });

  // The crash rows: a snapshot renames a shard's index, then the shard. Killed between the two (or a power cut
  // undoing either rename), the index beside a shard is of another version of it: the open decodes that shard.
  // Both directions of a length change: a shorter line leaves the old index's last range past the end of the new
  // shard, a longer one does not, so only the digest can tell.
  describe.each(['Renamed', 'Renamed to a longer name than any customer of this test had before'])(
    'a snapshot stopped between the renames of a shard and its index (%s)',
    (newName) => {
      async function generations(): Promise<{ before: string; after: string; shard: string; changed: ConversationRecord }> {
        const dataDir = await seeded();
        const store = await open(dataDir);
        const shard = await fullestShard(dataDir);
        // The shard's first line, so every line after it moves when it changes length.
        const [line] = (await readFile(shard, 'utf8')).split('\n');
        const first = JSON.parse(line!) as { key?: string; archivedKey?: string };
        const key = first.key ?? first.archivedKey!;
        const changed = { ...(await store.getConversation(key))!, contactName: newName, owner: 'paused' as const, updatedAt: clock.now };
        await store.saveConversation(changed);
        await store.flush();
        // The state a kill -9 leaves before the snapshot: old snapshot, the change in the journal.
        const before = await tempDir();
        await cp(dataDir, before, { recursive: true, filter: (source) => !source.endsWith('store.lock') });
        await store.close();
        return { before, after: dataDir, shard, changed };
      }

      const inDir = (path: string, from: string, to: string) => join(to, path.slice(from.length));

      /** Every conversation as it was saved, the changed one as changed. */
      async function expectEvery(store: Store, changed: ConversationRecord): Promise<void> {
        for (let i = 0; i < COUNT; i++) {
          const key = `whatsapp:${i}`;
          expect(await store.getConversation(key)).toEqual(key === changed.key ? changed : record(i));
        }
      }

      it('the new index beside the old shard: nothing is lost', async () => {
        const { before, after, shard, changed } = await generations();
        await cp(indexOf(shard), inDir(indexOf(shard), after, before));
        const store = await open(before);
        await expectEvery(store, changed);
        await store.close();
      });

      it('the new shard beside the old index: nothing is lost', async () => {
        const { before, after, shard, changed } = await generations();
        await cp(shard, inDir(shard, after, before));
        const store = await open(before);
        await expectEvery(store, changed);
        await store.close();
      });
    },
  );
});
