import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCoreFile } from '../../src/storage/decode-core-file.js';
import { CURRENT_SCHEMA_VERSION } from '../../src/storage/hot-state.js';
import { MIGRATIONS, schemaVersionOf } from '../../src/storage/migrations.js';

describe('schema migrations', () => {
  it('has one migration for every schema version before the current one', () => {
    expect(MIGRATIONS).toHaveLength(CURRENT_SCHEMA_VERSION);
  });

  it('reads a missing schemaVersion as the unversioned prototype and rejects a non-object', () => {
    expect(schemaVersionOf({ conversations: [] })).toBe(0);
    expect(schemaVersionOf({ schemaVersion: 1 })).toBe(1);
    expect(schemaVersionOf([1, 2])).toBeUndefined();
    expect(schemaVersionOf({ schemaVersion: 'one' })).toBeUndefined();
  });

  it('turns the v0 fixture into a valid current state with its collections inline for the shards', async () => {
    const text = await readFile(join(import.meta.dirname, 'fixtures', 'store-v0.json'), 'utf8');
    const decoded = decodeCoreFile(text, 'store.json', 42);
    expect(decoded.fromVersion).toBe(0);
    expect(decoded.state.cursors.get('2001')).toEqual({ value: { since: 1699999990 }, updatedAt: 42 });
    expect(decoded.inline.conversations.map((c) => c.key)).toEqual(['whatsapp:32470000001', 'web:v-17']);
    expect(decoded.inline.seen).toEqual({ '9001': 42, '9002': 42 });
  });
});
