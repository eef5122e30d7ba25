import { spawn } from 'node:child_process';
import { copyFile, cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStoreError, openFileStore } from '../../src/storage/index.js';
import { shardFileName, shardOf } from '../../src/storage/sharded-map.js';
import { conversation, mention, T0 } from './store-contract.js';
import { recordingLogger, useTempDirs } from './test-dirs.js';

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the store to refuse');
}

function exitedPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });
}

async function shardFiles(dataDir: string, table = 'conversations'): Promise<string[]> {
  const names = await readdir(join(dataDir, table));
  const withContent: string[] = [];
  for (const name of names.filter((name) => name.endsWith('.jsonl')).sort())
    if ((await readFile(join(dataDir, table, name), 'utf8')).length > 0) withContent.push(name);
  return withContent;
}

async function shardLines(dataDir: string, table: string): Promise<unknown[]> {
  const records: unknown[] = [];
  for (const name of await shardFiles(dataDir, table)) {
    const text = await readFile(join(dataDir, table, name), 'utf8');
    for (const line of text.split('\n')) if (line) records.push(JSON.parse(line));
  }
  return records;
}

type Pairs = Array<[string, unknown]>;
interface JournalLine {
  n: number;
  inbox?: Pairs;
  seen?: Pairs;
  outbox?: Pairs;
  cursors?: Pairs;
  conversations?: Pairs;
}

/** Every record of every journal file, in order. */
async function journalRecords(dataDir: string): Promise<JournalLine[]> {
  const names = (await readdir(dataDir)).filter((name) => name.startsWith('journal-')).sort();
  const records: JournalLine[] = [];
  for (const name of names) {
    for (const line of (await readFile(join(dataDir, name), 'utf8')).split('\n')) if (line) records.push(JSON.parse(line));
  }
  return records;
}

/** The data directory as a kill -9 leaves it (what is in the files now), without the lock of the live store. */
async function crashCopy(dataDir: string, into: string): Promise<string> {
  await cp(dataDir, into, { recursive: true, filter: (source) => !source.endsWith('store.lock') });
  return into;
}

const storedConversations = (dataDir: string): Promise<unknown[]> => shardLines(dataDir, 'conversations');

describe('the file store', () => {
  const tempDir = useTempDirs();

  describe('one process per data directory', () => {
    it('refuses a second open of the same directory, naming it and the pid holding it', async () => {
      const dataDir = await tempDir();
      const first = await openFileStore({ dataDir });
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain(dataDir);
      expect(error.message).toContain(String(process.pid));
      await first.close();
      const again = await openFileStore({ dataDir });
      await again.close();
    });

    it('takes over a lock whose process is dead, with a log line', async () => {
      const dataDir = await tempDir();
      const deadPid = await exitedPid();
      await writeFile(join(dataDir, 'store.lock'), JSON.stringify({ pid: deadPid, startedAt: 'earlier' }));
      const { lines, logger } = recordingLogger();
      const store = await openFileStore({ dataDir, logger });
      expect(lines.some((l) => l.level === 'warn' && l.message.includes(String(deadPid)))).toBe(true);
      expect(JSON.parse(await readFile(join(dataDir, 'store.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
      await store.close();
    });

    it('refuses a lock file that names no process instead of guessing', async () => {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'store.lock'), '');
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'locked')).toBe(true);
      expect(error.message).toContain('store.lock');
    });
  });

  describe('a file it cannot trust', () => {
    it('refuses a store file that is not JSON, names it, and leaves it unchanged', async () => {
      const dataDir = await tempDir();
      const file = join(dataDir, 'store.json');
      await writeFile(file, '{"schemaVersion":1,');
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'corrupt')).toBe(true);
      expect(error.message).toContain(file);
      expect(error.message).toContain('not valid JSON');
      expect(await readFile(file, 'utf8')).toBe('{"schemaVersion":1,');
      // The refusal released the lock: once the file is moved away the directory opens.
      await rm(file);
      await (await openFileStore({ dataDir })).close();
    });

    it('refuses a core file that fails the schema, naming the path of the problem', async () => {
      const dataDir = await tempDir();
      const file = join(dataDir, 'store.json');
      const store = await openFileStore({ dataDir });
      await store.recordInbound(mention('9001'));
      await store.close();
      const text = (await readFile(file, 'utf8')).replace(/"addedAt":\d+/, '"addedAt":"yesterday"');
      await writeFile(file, text);
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'schema')).toBe(true);
      expect(error.message).toContain(file);
      expect(error.message).toContain('inbox[0].addedAt');
      expect(await readFile(file, 'utf8')).toBe(text);
    });

    it('refuses a conversation file line that fails the schema, naming file, line and field', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      await store.saveConversation(conversation('1'));
      await store.close();
      const [name] = await shardFiles(dataDir);
      const file = join(dataDir, 'conversations', name!);
      const text = (await readFile(file, 'utf8')).replace(`"updatedAt":${T0}`, '"updatedAt":"yesterday"');
      await writeFile(file, text);
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'schema')).toBe(true);
      expect(error.message).toContain(`${file} line 1`);
      expect(error.message).toContain('updatedAt');
      expect(await readFile(file, 'utf8')).toBe(text);
    });

    it('refuses a file written by a newer version', async () => {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'store.json'), JSON.stringify({ schemaVersion: 99 }));
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'schema')).toBe(true);
      expect(error.message).toContain('newer');
    });
  });

  describe('schema migration', () => {
    it('migrates the unversioned prototype file, keeping a backup of the original', async () => {
      const dataDir = await tempDir();
      const fixture = join(import.meta.dirname, 'fixtures', 'store-v0.json');
      await copyFile(fixture, join(dataDir, 'store.json'));
      const store = await openFileStore({ dataDir, clock: () => T0 });
      expect(await store.getConversation('whatsapp:32470000001')).toMatchObject({ owner: 'agents', contactName: 'Ann' });
      expect(await store.countByOwner()).toMatchObject({ bot: 1, agents: 1 });
      expect(await store.hasSeen('2001', '9002')).toBe(true);
      expect(await store.getCursor('2001')).toEqual({ since: 1699999990 });
      await store.close();
      expect(await readFile(join(dataDir, 'store.json.v0.bak'), 'utf8')).toBe(await readFile(fixture, 'utf8'));
      const core = JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8'));
      expect(core).toMatchObject({ schemaVersion: 2 });
      expect(core).not.toHaveProperty('conversations');
      // The prototype did not know topics: its ids count as seen in every topic.
      expect(await shardLines(dataDir, 'seen')).toEqual(
        expect.arrayContaining([
          ['*/9001', T0],
          ['*/9002', T0],
        ]),
      );
      expect(await storedConversations(dataDir)).toHaveLength(2);
      const reopened = await openFileStore({ dataDir });
      expect(await reopened.hasSeen('2001', '9001')).toBe(true);
      await reopened.close();
    });

    it('migrates a v1 store to topic keys: a waiting mention keeps its topic and its effects, other ids stay seen in every topic (#11.10)', async () => {
      const dataDir = await tempDir();
      const waiting = mention('9003', { topicId: '2002' });
      const effect = {
        key: '9003:decision',
        kind: 'decision',
        contactKey: waiting.key,
        payload: { kind: 'decision' },
        seq: 1,
        status: 'pending',
        attempts: 0,
        createdAt: T0,
        updatedAt: T0,
      };
      const v1 = {
        schemaVersion: 1,
        meta: { createdAt: T0, values: {}, nextEscalationSeq: 1, nextEffectSeq: 2 },
        inbox: [waiting],
        cursors: {},
        escalations: {},
        seen: { '9001': T0, '9003': T0 },
        outbox: { '9003:decision': effect },
      };
      await writeFile(join(dataDir, 'store.json'), JSON.stringify(v1));
      const store = await openFileStore({ dataDir, clock: () => T0 });
      expect(await store.hasSeen('2001', '9001')).toBe(true);
      expect(await store.hasSeen('2005', '9001')).toBe(true);
      expect(await store.hasSeen('2002', '9003')).toBe(true);
      expect(await store.hasSeen('2001', '9003')).toBe(false);
      expect(await store.recordInbound(mention('9003', { topicId: '2001' }))).toBe(true);
      expect(await store.getEffect('2002/9003:decision')).toMatchObject({ key: '2002/9003:decision', status: 'pending' });
      expect(await store.getEffect('9003:decision')).toBeUndefined();
      await store.markInboundProcessed('2002', '9003');
      await store.close();
      expect(JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8'))).toMatchObject({ schemaVersion: 2 });
      expect(await readFile(join(dataDir, 'store.json.v1.bak'), 'utf8')).toBe(JSON.stringify(v1));
      expect(await shardLines(dataDir, 'seen')).toEqual(
        expect.arrayContaining([
          ['*/9001', T0],
          ['2002/9003', T0],
        ]),
      );
      const reopened = await openFileStore({ dataDir });
      expect((await reopened.pendingInbound()).map((m) => `${m.topicId}/${m.id}`)).toEqual(['2001/9003']);
      await reopened.close();
    });

    it('replays a v1 journal record that names an inbox mention by id alone', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir, clock: () => T0 });
      await store.recordInbound(mention('9004', { topicId: '2002' }));
      await store.close();
      const core = JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8'));
      await writeFile(join(dataDir, 'store.json'), JSON.stringify({ ...core, schemaVersion: 1 }));
      const n = (core.journalSeq ?? 0) + 1;
      const journal = `journal-${String(n).padStart(12, '0')}.jsonl`;
      await writeFile(join(dataDir, journal), `${JSON.stringify({ n, inbox: [['9004', null]] })}\n`);
      const reopened = await openFileStore({ dataDir });
      expect(await reopened.pendingInbound()).toEqual([]);
      expect(await reopened.hasSeen('2002', '9004')).toBe(true);
      await reopened.close();
    });

    it('refuses a prototype file it cannot migrate, naming the path', async () => {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'store.json'), JSON.stringify({ seenIds: [1, 2] }));
      const error = await refusal(openFileStore({ dataDir }));
      expect(isStoreError(error, 'schema')).toBe(true);
      expect(error.message).toContain('seenIds');
    });
  });

  describe('durability', () => {
    it('has a recorded mention in the synced journal as soon as recordInbound resolves, and a kill -9 then keeps it', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      await store.recordInbound(mention('9001'));
      await store.enqueueEffect({ key: '9001:reply', kind: 'reply', contactKey: 'whatsapp:32470000001', payload: { text: 'hi' } });
      const records = await journalRecords(dataDir);
      expect(records.flatMap((r) => (r.inbox ?? []).map(([id]) => id))).toEqual(['2001/9001']);
      expect(records.flatMap((r) => (r.seen ?? []).map(([id]) => id))).toEqual(['2001/9001']);
      expect(records.flatMap((r) => (r.outbox ?? []).map(([key]) => key))).toEqual(['9001:reply']);
      // What the disk holds at this instant is what a kill -9 leaves.
      const crashed = await crashCopy(dataDir, await tempDir());
      await store.close();
      const reopened = await openFileStore({ dataDir: crashed });
      expect(await reopened.recordInbound(mention('9001'))).toBe(false);
      expect((await reopened.pendingEffects()).map((e) => e.key)).toEqual(['9001:reply']);
      await reopened.close();
    });

    it('keeps a conversation written many times, lines added, dropped and changed, as it was after a kill -9 and a restart', async () => {
      const dataDir = await tempDir();
      // Past the length from which a write reuses the texts of the lines it keeps, and on past the window.
      const store = await openFileStore({ dataDir, transcriptMaxLines: 26 });
      let expected: unknown;
      for (let n = 0; n < 40; n += 1) {
        const updated = await store.updateConversation('whatsapp:1', (current) => {
          const base = current ?? conversation('1', { transcript: [] });
          const transcript = [...base.transcript, { at: n, from: 'customer' as const, text: `"m${n}" é` }];
          // Now and then the echo of the line before gets its mention id.
          const echoed = transcript.length - 2;
          if (n % 3 === 0 && echoed >= 0) transcript[echoed] = { ...transcript[echoed]!, mentionId: `e${n}`, topicId: '2001' };
          return { ...base, transcript, dialog: { turn: n }, updatedAt: T0 + n };
        });
        expected = JSON.parse(JSON.stringify(updated));
        await store.getConversation('whatsapp:1');
      }
      await store.flush();
      const crashed = await crashCopy(dataDir, await tempDir());
      await store.close();
      for (const dir of [crashed, dataDir]) {
        const reopened = await openFileStore({ dataDir: dir });
        expect(await reopened.getConversation('whatsapp:1')).toStrictEqual(expected);
        await reopened.close();
      }
    });

    it('writes the other mutations by flush, and a clean close leaves a snapshot and an empty journal', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      await store.recordInbound(mention('1'));
      await store.setCursor('2001', { since: 5 });
      await store.saveConversation(conversation('1'));
      await store.flush();
      const records = await journalRecords(dataDir);
      expect(records.flatMap((r) => r.cursors ?? [])).toMatchObject([['2001', { value: { since: 5 } }]]);
      expect(records.flatMap((r) => (r.conversations ?? []).map(([, value]) => value))).toEqual([conversation('1')]);
      await store.close();
      const onDisk = JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8'));
      expect(onDisk.cursors['2001'].value).toEqual({ since: 5 });
      expect(await storedConversations(dataDir)).toEqual([conversation('1')]);
      expect(await journalRecords(dataDir)).toEqual([]);
    });

    it('writes on close at once, without waiting out the write interval', { timeout: 10_000 }, async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir, writeIntervalMs: 60_000 });
      await store.recordInbound(mention('1'));
      await store.setCursor('2001', 'c1');
      await store.close();
      expect(JSON.parse(await readFile(join(dataDir, 'store.json'), 'utf8')).cursors['2001'].value).toBe('c1');
      expect(store.stats().writes).toBe(2);
    });
    it('keeps what a killed process recorded, and takes over its lock', async () => {
      const dataDir = await tempDir();
      const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-child.ts'), dataDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const deadline = Date.now() + 20_000;
      while (!output.includes('recorded') && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(output).toContain('recorded');
      child.kill('SIGKILL');
      await exited;
      const { lines, logger } = recordingLogger();
      const store = await openFileStore({ dataDir, logger });
      expect(lines.some((l) => l.message.includes('taking over'))).toBe(true);
      expect((await store.pendingInbound()).map((m) => m.id)).toEqual(['crash-1']);
      expect((await store.listAudit()).map((e) => e.actor)).toEqual(['child']);
      await store.close();
    });

    it('still knows an inbox mention whose seen-id shard never reached the disk', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      await store.recordInbound(mention('9001'));
      await store.close();
      await rm(join(dataDir, 'seen'), { recursive: true });
      const reopened = await openFileStore({ dataDir });
      expect(await reopened.recordInbound(mention('9001'))).toBe(false);
      expect((await reopened.pendingInbound()).map((m) => m.id)).toEqual(['9001']);
      await reopened.close();
    });

    it('rejects a durable mutation whose journal write fails, then writes it once the disk recovers', async () => {
      const dataDir = await tempDir();
      const { lines, logger } = recordingLogger();
      const store = await openFileStore({ dataDir, logger, writeIntervalMs: 0 });
      const blocker = join(dataDir, 'journal-000000000001.jsonl');
      await mkdir(blocker); // the append to a directory fails like a broken disk would
      const error = await refusal(store.recordInbound(mention('1')));
      expect(isStoreError(error, 'io')).toBe(true);
      expect(error.message).toContain(dataDir);
      expect(store.stats().writeErrors).toBeGreaterThan(0);
      expect(lines.some((l) => l.level === 'error')).toBe(true);
      await rm(blocker, { recursive: true });
      await store.flush();
      expect((await journalRecords(dataDir)).flatMap((r) => (r.inbox ?? []).map(([id]) => id))).toEqual(['2001/1']);
      await store.close();
      const reopened = await openFileStore({ dataDir });
      expect((await reopened.pendingInbound()).map((m) => m.id)).toEqual(['1']);
      await reopened.close();
    });
  });

  describe('group commit', () => {
    it('turns 100 concurrent mutations into one journal record and one fsync', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      const ids = Array.from({ length: 100 }, (_, i) => String(i));
      const results = await Promise.all(ids.map((id) => store.recordInbound(mention(id))));
      expect(results.every(Boolean)).toBe(true);
      expect(store.stats()).toMatchObject({ writes: 1, fsyncs: 1 });
      const records = await journalRecords(dataDir);
      expect(records).toHaveLength(1);
      expect(records[0]?.seen).toHaveLength(100);
      await store.close();
    });
  });

  describe('cold files', () => {
    it('finds archived conversations and audit entries after a restart', async () => {
      const dataDir = await tempDir();
      const store = await openFileStore({ dataDir });
      for (const id of ['1', '2', '3']) await store.saveConversation(conversation(id, { updatedAt: T0 - 1 }));
      await store.audit({ at: T0, actor: 'U1', action: 'bot pause', subject: 'whatsapp:1' });
      expect(await store.archiveInactive(T0)).toBe(3);
      await store.close();
      const reopened = await openFileStore({ dataDir });
      expect(await reopened.countByOwner()).toMatchObject({ bot: 0, archived: 3 });
      expect(await reopened.getConversation('whatsapp:2')).toEqual(conversation('2', { updatedAt: T0 - 1 }));
      expect(await reopened.listAudit()).toEqual([{ at: T0, actor: 'U1', action: 'bot pause', subject: 'whatsapp:1' }]);
      await reopened.close();
    });

    it('skips a torn last line in the cold files and appends after it', async () => {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, 'audit.jsonl'), `${JSON.stringify({ at: 1, actor: 'a', action: 'x', subject: 's' })}\n{"at":2,"act`);
      await mkdir(join(dataDir, 'archive'));
      await writeFile(join(dataDir, 'archive', shardFileName(shardOf('whatsapp:1', 256))), '{"key":"whatsapp:1","chan');
      const { lines, logger } = recordingLogger();
      const store = await openFileStore({ dataDir, logger });
      await store.audit({ at: 3, actor: 'b', action: 'y', subject: 's' });
      expect((await store.listAudit()).map((e) => e.at)).toEqual([1, 3]);
      expect(lines.some((l) => l.level === 'warn' && l.message.includes('unreadable audit'))).toBe(true);
      await store.saveConversation(conversation('1', { updatedAt: T0 - 1 }));
      await store.archiveInactive(T0);
      expect(await store.getConversation('whatsapp:1')).toEqual(conversation('1', { updatedAt: T0 - 1 }));
      await store.close();
    });
  });
});
