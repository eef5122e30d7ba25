import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileStore } from '../../src/storage/index.js';
import { shardFileName, shardOf } from '../../src/storage/sharded-map.js';
import { conversation } from './store-contract.js';
import { useTempDirs } from './test-dirs.js';

const SHARDS = 256;

// A conversation line in a shard file that is not its home (a layout of an older version, or a file restored by
// hand), or in two files, is loaded once, counted once, and both files are written again at the next snapshot.
describe('loading the conversation shards', () => {
  const tempDir = useTempDirs();

  it('keeps a record found in the wrong file, or in two, once, and puts it back where it belongs', async () => {
    const dataDir = await tempDir();
    const store = await openFileStore({ dataDir });
    for (const id of ['1', '2', '3']) await store.saveConversation(conversation(id, { owner: id === '3' ? 'agents' : 'bot' }));
    await store.close();
    const dir = join(dataDir, 'conversations');
    const path = (key: string) => join(dir, shardFileName(shardOf(key, SHARDS)));
    const lineOf = async (key: string) => (await readFile(path(key), 'utf8')).split('\n').find((line) => line.includes(`"${key}"`))!;
    // whatsapp:1 moves into whatsapp:2's file; whatsapp:3 is copied there too.
    const one = await lineOf('whatsapp:1');
    const three = await lineOf('whatsapp:3');
    await writeFile(path('whatsapp:1'), (await readFile(path('whatsapp:1'), 'utf8')).replace(`${one}\n`, ''));
    await appendFile(path('whatsapp:2'), `${one}\n${three}\n`);

    const reopened = await openFileStore({ dataDir });
    expect(reopened.stats().conversations).toBe(3);
    expect(await reopened.countByOwner()).toMatchObject({ bot: 2, agents: 1 });
    expect(await reopened.getConversation('whatsapp:1')).toEqual(conversation('1'));
    await reopened.close();

    const holders = async (key: string) => {
      const found: string[] = [];
      for (const name of await readdir(dir)) {
        if (name.endsWith('.jsonl') && (await readFile(join(dir, name), 'utf8')).includes(`"${key}"`)) found.push(join(dir, name));
      }
      return found;
    };
    for (const key of ['whatsapp:1', 'whatsapp:2', 'whatsapp:3']) expect(await holders(key)).toEqual([path(key)]);
  });
});
