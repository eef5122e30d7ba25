import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isStoreError } from '../../../src/storage/index.js';
import type { Store } from '../../../src/storage/index.js';
import { JOURNAL_BACKUP_DIR } from '../../../src/storage/sqlite/import-journal-dir.js';
import { SQLITE_FILE, openSqliteStore } from '../../../src/storage/sqlite/open-sqlite-store.js';

// Data directories written by the journal store of release 0.1 (test/storage/fixtures/journal-dirs/README.md), and
// what that store itself read from each (`<name>.expected.json`).
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'journal-dirs');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function copyOf(name: string): Promise<string> {
  const root = await mktemp();
  const dir = join(root, 'data');
  await cp(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

async function mktemp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'import-fixture-'));
  dirs.push(dir);
  return dir;
}

interface Expected {
  now: number;
  archived: Record<string, unknown>;
  seen: Record<string, boolean>;
  effects: Record<string, unknown>;
  cursors: Record<string, unknown>;
  [field: string]: unknown;
}

async function viewOf(store: Store, expected: Expected): Promise<Expected> {
  const archived: Record<string, unknown> = {};
  for (const key of Object.keys(expected.archived)) archived[key] = await store.getConversation(key);
  const seen: Record<string, boolean> = {};
  for (const ref of Object.keys(expected.seen)) {
    const [topic, id] = ref.split('/') as [string, string];
    seen[ref] = await store.hasSeen(topic, id);
  }
  const effects: Record<string, unknown> = {};
  for (const key of Object.keys(expected.effects)) effects[key] = (await store.getEffect(key)) ?? null;
  const cursors: Record<string, unknown> = {};
  for (const topic of Object.keys(expected.cursors)) cursors[topic] = (await store.getCursor(topic)) ?? null;
  return {
    now: expected.now,
    conversations: await store.listConversations(),
    archived,
    pendingInbound: await store.pendingInbound(),
    pendingEffects: await store.pendingEffects(),
    meta: await store.getMeta(),
    escalations: await store.listEscalations(),
    audit: await store.listAudit(),
    counts: await store.countByOwner(),
    seen,
    effects,
    cursors,
  };
}

/** The order of a listing is the store's own: conversations compared by key. */
function byKey(view: Expected): Expected {
  const list = [...(view.conversations as Array<{ key: string }>)];
  return { ...view, conversations: list.sort((a, b) => (a.key < b.key ? -1 : 1)) };
}

describe('opening the SQLite store on a data directory the journal store of 0.1 wrote', () => {
  for (const name of ['realistic', 'v1']) {
    it(`imports the ${name} directory once with everything the journal store read from it, and keeps its files as a backup`, async () => {
      const expected = JSON.parse(await readFile(join(FIXTURES, `${name}.expected.json`), 'utf8')) as Expected;
      const dir = await copyOf(name);
      const store = await openSqliteStore({ dataDir: dir, clock: () => expected.now });
      try {
        expect(byKey(await viewOf(store, expected))).toEqual(byKey(expected));
      } finally {
        await store.close();
      }
      const left = await readdir(dir);
      expect(left).toEqual(expect.arrayContaining([SQLITE_FILE, JOURNAL_BACKUP_DIR]));
      expect(left.filter((f) => f === 'store.json' || /^journal-\d+\.jsonl$/.test(f) || f === 'conversations')).toEqual([]);
      // Read only: the backup is the directory as it was, file for file.
      expect((await readdir(join(dir, JOURNAL_BACKUP_DIR))).sort()).toEqual((await readdir(join(FIXTURES, name))).sort());

      // Once: a second open reads bridge.db and leaves the backup alone.
      const again = await openSqliteStore({ dataDir: dir, clock: () => expected.now });
      try {
        expect(byKey(await viewOf(again, expected))).toEqual(byKey(expected));
      } finally {
        await again.close();
      }
    });
  }

  it('imports the prototype store file (no schemaVersion, no journal): conversations, seen ids in every topic, cursors', async () => {
    const dir = join(await mktemp(), 'data');
    await mkdir(dir);
    await cp(join(FIXTURES, '..', 'store-v0.json'), join(dir, 'store.json'));
    const store = await openSqliteStore({ dataDir: dir, clock: () => 1_700_000_000_000 });
    try {
      expect((await store.listConversations()).map((c) => [c.key, c.owner])).toEqual(
        expect.arrayContaining([
          ['whatsapp:32470000001', 'agents'],
          ['web:v-17', 'bot'],
        ]),
      );
      expect(await store.hasSeen('2001', '9001')).toBe(true);
      expect(await store.hasSeen('2002', '9002')).toBe(true);
      expect(await store.hasSeen('2001', '9003')).toBe(false);
      expect(await store.getCursor('2001')).toEqual({ since: 1699999990 });
    } finally {
      await store.close();
    }
    expect(await readdir(join(dir, JOURNAL_BACKUP_DIR))).toEqual(['store.json']);
  });

  it('refuses a directory whose journal has a damaged line before the last, naming the file and line, and changes nothing', async () => {
    const dir = await copyOf('realistic');
    const [journal] = (await readdir(dir)).filter((f) => f.startsWith('journal-'));
    const path = join(dir, journal!);
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[0] = '{"n":13,"conversations":[["whatsapp:1",{"key":';
    await writeFile(path, lines.join('\n'));
    const before = (await readdir(dir)).sort();
    const error = await openSqliteStore({ dataDir: dir }).then(
      () => new Error('expected a refusal'),
      (e: unknown) => e,
    );
    expect(isStoreError(error, 'corrupt')).toBe(true);
    expect((error as Error).message).toContain(`${journal} line 1`);
    expect((await readdir(dir)).filter((f) => f !== 'bridge.lock').sort()).toEqual(before);
    expect(existsSync(join(dir, SQLITE_FILE))).toBe(false);
  });

  it('refuses a store.json that is not a store or that a newer release wrote, and changes nothing', async () => {
    for (const [text, said] of [
      ['[1, 2]', 'is not a store'],
      ['{"schemaVersion": "one"}', 'is not a store'],
      ['{"schemaVersion": 3}', 'newer engage-bridge'],
    ] as const) {
      const dir = join(await mktemp(), 'data');
      await mkdir(dir);
      await writeFile(join(dir, 'store.json'), text);
      const error = await openSqliteStore({ dataDir: dir }).then(
        () => new Error('expected a refusal'),
        (e: unknown) => e,
      );
      expect(isStoreError(error, 'schema')).toBe(true);
      expect((error as Error).message).toContain(said);
      expect(await readdir(dir)).toEqual(['bridge.lock', 'store.json']);
    }
  });
});
