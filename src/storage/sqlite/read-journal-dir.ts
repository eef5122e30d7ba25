import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { decodeCoreFile } from '../decode-core-file.js';
import { hasSeenIn, shardedTables } from '../hot-state.js';
import type { HotState } from '../hot-state.js';
import { keySeenByTopic } from '../key-seen-by-topic.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from '../load-shards.js';
import type { LineDecoder } from '../load-shards.js';
import { isCode } from '../lock-file.js';
import { auditEntrySchema, mentionRef } from '../records.js';
import type { AuditEntry } from '../records.js';
import { StoreError, describeCause, describeJsonFailure } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';
import { RecordProblem, applyJournalRecord, parseJournalRecord } from './journal-record.js';

/** The journal store's files (release 0.1; `README.md` in `src/storage`, "Import of an old data directory"). */
export const STORE_FILE = 'store.json';
export const AUDIT_FILE = 'audit.jsonl';
export const ARCHIVE_DIR = 'archive';
const JOURNAL_FILE = /^journal-(\d{12})\.jsonl$/;
const LEAVE_IT = 'Nothing was imported and the files were left unchanged: fix them, restore a backup, or move them away.';

export interface JournalDir {
  /** The whole state as the journal store would have opened it. */
  state: HotState;
  audit: AuditEntry[];
  /** The latest archived copy of each conversation the state says is archived, as its JSON text. */
  archive: Array<{ key: string; json: string }>;
}

/**
 * Reads a data directory the journal store wrote, without changing a byte of it: the snapshot (`store.json`, then
 * the conversations/seen/outbox shard files), the journal records after the snapshot's `journalSeq` in order, the
 * audit log and the archive. A torn last line of a journal file (a crash during its append, never acknowledged)
 * is left out; any other line that cannot be read refuses the import, naming the file and line, never quoting it.
 */
export async function readJournalDir(dir: string, now: number, logger: StoreLogger): Promise<JournalDir> {
  const corePath = join(dir, STORE_FILE);
  const decoded = decodeCoreFile(await readText(corePath), corePath, now);
  const { state } = decoded;
  const decoders: Record<string, LineDecoder<unknown>> = {
    conversations: decodeConversationLine as LineDecoder<unknown>,
    seen: decodeSeenLine as LineDecoder<unknown>,
    outbox: decodeEffectLine as LineDecoder<unknown>,
  };
  for (const [name, table] of shardedTables(state)) {
    const decode = decoders[name]!;
    for (const file of await filesIn(join(dir, name), /\.jsonl$/)) {
      const path = join(dir, name, file);
      eachLine(await readText(path), (line, lineNumber) => {
        const result = decode(parseLine(line, path, lineNumber), line);
        if ('error' in result) throw refusal('schema', path, lineNumber, `does not match the schema:\n${z.prettifyError(result.error)}`);
        table.set(result.entry[0], result.entry[1]);
      });
    }
  }
  for (const record of decoded.inline.conversations)
    state.conversations.set(record.key, { json: JSON.stringify(record), owner: record.owner, updatedAt: record.updatedAt });
  for (const [ref, at] of Object.entries(decoded.inline.seen)) state.seen.set(ref, at);
  for (const [key, effect] of Object.entries(decoded.inline.outbox)) state.outbox.set(key, effect);
  await replayJournal(dir, state, decoded.journalSeq);
  if (decoded.fromVersion < 2) keySeenByTopic(state);
  // A seen id always goes with its inbox entry (an older layout could lose the seen shard alone).
  for (const m of state.inbox) if (!hasSeenIn(state, m.topicId, m.id)) state.seen.set(mentionRef(m.topicId, m.id), now);
  return { state, audit: await readAudit(dir, logger), archive: await readArchive(dir, state) };
}

async function replayJournal(dir: string, state: HotState, journalSeq: number): Promise<void> {
  const files = (await filesIn(dir, JOURNAL_FILE)).sort((a, b) => Number(JOURNAL_FILE.exec(a)![1]) - Number(JOURNAL_FILE.exec(b)![1]));
  let last = 0;
  for (const file of files) {
    const path = join(dir, file);
    const lines = (await readText(path)).split('\n');
    while (lines.at(-1) === '') lines.pop();
    for (const [index, line] of lines.entries()) {
      const lineNumber = index + 1;
      if (line.length === 0) continue;
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        if (index === lines.length - 1) break; // torn by a crash during its append: never acknowledged
        throw refusal('corrupt', path, lineNumber, 'is not valid JSON');
      }
      try {
        const record = parseJournalRecord(data);
        if (record.n <= last) throw new RecordProblem(`record number ${record.n} does not follow ${last}`);
        last = record.n;
        if (record.n > journalSeq) applyJournalRecord(state, record);
      } catch (error) {
        if (!(error instanceof RecordProblem)) throw error;
        throw refusal('schema', path, lineNumber, `cannot be replayed:\n${error.message}`);
      }
    }
  }
}

/** The audit log is a record, not state: a line that cannot be read (a torn tail) is skipped and counted. */
async function readAudit(dir: string, logger: StoreLogger): Promise<AuditEntry[]> {
  const path = join(dir, AUDIT_FILE);
  const entries: AuditEntry[] = [];
  let bad = 0;
  eachLine(await readText(path, ''), (line) => {
    try {
      const result = auditEntrySchema.safeParse(JSON.parse(line));
      if (result.success) entries.push(result.data);
      else bad += 1;
    } catch {
      bad += 1;
    }
  });
  if (bad > 0) logger.warn({ file: path }, `skipped ${bad} unreadable audit line(s) of the old data directory`);
  return entries;
}

/** The last copy of each archived conversation (a key's copies are all in one shard file, oldest first). */
async function readArchive(dir: string, state: HotState): Promise<Array<{ key: string; json: string }>> {
  const latest = new Map<string, string>();
  for (const file of await filesIn(join(dir, ARCHIVE_DIR), /\.jsonl$/)) {
    eachLine(await readText(join(dir, ARCHIVE_DIR, file)), (line) => {
      try {
        const key = (JSON.parse(line) as { key?: unknown }).key;
        if (typeof key === 'string') latest.set(key, line);
      } catch {
        // A torn line from a crash during an append: its conversation was still in the hot set.
      }
    });
  }
  const archive: Array<{ key: string; json: string }> = [];
  for (const [key, json] of latest) {
    const slot = state.conversations.get(key);
    if (slot && 'archivedAt' in slot) archive.push({ key, json });
  }
  return archive;
}

function eachLine(text: string, visit: (line: string, lineNumber: number) => void): void {
  for (const [index, line] of text.split('\n').entries()) if (line.length > 0) visit(line, index + 1);
}

function parseLine(line: string, path: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw refusal('corrupt', path, lineNumber, `is not valid JSON (${describeJsonFailure(error)})`);
  }
}

function refusal(code: 'corrupt' | 'schema', path: string, lineNumber: number, what: string): StoreError {
  return new StoreError(code, `The old store file ${path} line ${lineNumber} ${what}. ${LEAVE_IT}`);
}

async function filesIn(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => pattern.test(name)).sort();
  } catch (error) {
    if (isCode(error, 'ENOENT')) return [];
    throw new StoreError('io', `Cannot read the directory ${dir}: ${describeCause(error)}.`, { cause: error });
  }
}

async function readText(path: string, missing?: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (missing !== undefined && isCode(error, 'ENOENT')) return missing;
    throw new StoreError('io', `Cannot read ${path}: ${describeCause(error)}.`, { cause: error });
  }
}
