import { cp } from 'node:fs/promises';

/** The data directory as a kill -9 leaves it: whatever is in the files now (the page cache), without the live lock. */
export async function killCopy(dataDir: string, into: string): Promise<string> {
  await cp(dataDir, into, { recursive: true, filter: (source) => !source.endsWith('store.lock') });
  return into;
}
