import { open } from 'node:fs/promises';

/** Makes a file's creation, rename or removal in `dir` durable: the entry lives in the directory. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
