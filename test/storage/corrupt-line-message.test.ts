import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStoreError, openFileStore } from '../../src/storage/index.js';
import { useTempDirs } from './test-dirs.js';

const tempDir = useTempDirs();
const CUSTOMER_TEXT = 'Hello this is Ann my card is 4111';

async function openError(dataDir: string): Promise<Error> {
  try {
    const store = await openFileStore({ dataDir });
    await store.close();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the store to refuse the start');
}

describe('a corrupt store line', () => {
  it('is reported by file and line, never by the customer text on it', async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, 'conversations'), { recursive: true });
    // A torn line whose content V8 would quote in its JSON error.
    await writeFile(join(dataDir, 'conversations', '00.jsonl'), `{"key":"whatsapp/1","transcript":[{"text": ${CUSTOMER_TEXT}"}]}\n`);
    const error = await openError(dataDir);
    expect(isStoreError(error, 'corrupt')).toBe(true);
    expect(error.message).toContain('00.jsonl line 1');
    expect(error.message).not.toContain('Hello');
    expect(error.message).not.toContain('Ann');
  });

  it('is reported in the core file without its content either', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'store.json'), `{"schemaVersion": 3, "note": ${CUSTOMER_TEXT}}`);
    const error = await openError(dataDir);
    expect(isStoreError(error, 'corrupt')).toBe(true);
    expect(error.message).toContain('store.json');
    expect(error.message).not.toContain('Hello');
  });
});
