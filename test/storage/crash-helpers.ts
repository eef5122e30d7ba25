import { cp } from 'node:fs/promises';

/**
 * The data directory as a kill -9 leaves it: whatever is in the files now (the page cache). Without the live lock:
 * reading bridge.lock in this process would drop the lock its store holds.
 */
export async function killCopy(dataDir: string, into: string): Promise<string> {
  await cp(dataDir, into, { recursive: true, filter: (source) => !source.endsWith('bridge.lock') });
  return into;
}
