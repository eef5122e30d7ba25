import { jsonTextOf, parseInput, validateInput } from '../parse-input.js';
import { conversationKey, conversationSchema, ownerSchema } from '../records.js';
import type { ConversationRecord, Owner } from '../records.js';
import { StoreError } from '../store-error.js';
import type { ResolvedStoreOptions } from '../store-options.js';
import type { ConversationFilter } from '../store.js';
import type { ConversationRows, SqlSession } from './sql-session.js';

/**
 * A conversation's rows: `bridge_conversations` (key, owner, updated_at, archived_at, the record without its
 * transcript as `body`, the dialog state as `dialog`), each transcript line a row of `bridge_transcript` (numbered
 * per conversation), so an answered message writes its new lines rather than the whole transcript again. An
 * archived one keeps only `archived_at`; its copies are rows of `bridge_archive` (the latest is the one read).
 */
type Lines = ConversationRows['rows'];

const TRANSCRIPT_ROWS_SQL = 'SELECT seq, body FROM bridge_transcript WHERE key = ? ORDER BY seq';

async function transcriptRows(db: SqlSession, key: string): Promise<Lines> {
  return (await db.all<{ seq: number; body: string }>(TRANSCRIPT_ROWS_SQL, [key])).map((r) => ({ seq: Number(r.seq), body: r.body }));
}

/** The conversation's JSON from its row's body (without `transcript`, and without `dialog` when that has its column) and its lines. */
export function joinConversation(body: string, lines: readonly string[], dialog: string | null = null): string {
  return `${body.slice(0, -1)}${dialog === null ? '' : `,"dialog":${dialog}`},"transcript":[${lines.join(',')}]}`;
}

function parseRecord(text: string, table: string): ConversationRecord {
  try {
    return JSON.parse(text) as ConversationRecord;
  } catch {
    throw new StoreError('corrupt', `A conversation row of ${table} is not valid JSON.`);
  }
}

/** The conversation as stored, with its live rows as the open transaction has them (to write the next version against). */
export async function readConversation(
  db: SqlSession,
  key: string,
): Promise<{ record: ConversationRecord | undefined; rows: ConversationRows | undefined; archived: boolean }> {
  let rows = db.recent.get(key);
  if (!rows) {
    const row = await db.get<{ archived_at: number | null; body: string | null; dialog: string | null }>(
      'SELECT archived_at, body, dialog FROM bridge_conversations WHERE key = ?',
      [key],
    );
    if (!row) return { record: undefined, rows: undefined, archived: false };
    if (row.archived_at !== null || row.body === null) {
      const copy = await db.get<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
      return { record: copy && parseRecord(copy.body, 'bridge_archive'), rows: undefined, archived: true };
    }
    rows = { body: row.body, dialog: row.dialog, rows: await transcriptRows(db, key) };
  }
  db.recent.use(key, rows);
  const text = joinConversation(
    rows.body,
    rows.rows.map((r) => r.body),
    rows.dialog,
  );
  return { record: parseRecord(text, 'bridge_conversations'), rows, archived: false };
}

/** Checks a caller's record and bounds its transcript; throws before anything is written. */
export function checkConversation(record: unknown, options: ResolvedStoreOptions): ConversationRecord {
  const parsed = validateInput(conversationSchema, record, 'Conversation');
  const expected = conversationKey(parsed.channel, parsed.serviceId);
  if (parsed.key !== expected) {
    throw new StoreError('invalid', `Conversation key ${parsed.key} does not match channel:serviceId (${expected}); nothing was changed.`);
  }
  const { transcriptMaxLines: maxLines, transcriptMaxLineChars: maxChars } = options;
  const kept = parsed.transcript.length > maxLines ? parsed.transcript.slice(-maxLines) : parsed.transcript;
  const transcript = kept.map((line) => (line.text.length > maxChars ? { ...line, text: `${line.text.slice(0, maxChars - 1)}…` } : line));
  return { ...parsed, transcript };
}

/**
 * Writes a checked record against its live rows (read when not given and not at hand): its row, the dialog column
 * only when it changed, and of its transcript only the lines that changed. Returns the record given (zod's copy;
 * its dialog is the caller's own value): the store keeps only the text.
 */
export async function writeConversation(
  db: SqlSession,
  record: ConversationRecord,
  live?: { rows: Lines; dialog?: string | null },
): Promise<ConversationRecord> {
  const { transcript, dialog, ...rest } = record;
  const body = jsonTextOf(rest, 'Conversation');
  // The dialog's JSON text (none for a value JSON leaves out, such as undefined).
  const dialogWrapped = jsonTextOf({ dialog }, 'Conversation');
  const dialogText = dialogWrapped === '{}' ? null : dialogWrapped.slice('{"dialog":'.length, -1);
  const lines = transcript.map((line) => ({ at: line.at, json: JSON.stringify(line) }));
  const known = live ?? db.recent.get(record.key);
  const committed = known?.rows ?? (await transcriptRows(db, record.key));
  // The dialog column as the open transaction has it; unknown (undefined) when the rows were not read.
  const keepDialog = known?.dialog === dialogText;
  await db.write(
    `INSERT INTO bridge_conversations (key, owner, updated_at, archived_at, body, dialog) VALUES (?, ?, ?, NULL, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, archived_at = NULL, body = excluded.body${keepDialog ? '' : ', dialog = excluded.dialog'}`,
    [record.key, record.owner, record.updatedAt, body, keepDialog ? null : dialogText],
  );
  const rows: Lines = [];
  for (const statement of transcriptStatements(record.key, committed, lines, rows)) await db.write(statement.sql, statement.values);
  db.recent.use(record.key, { body, dialog: dialogText, rows });
  return record;
}

/**
 * The statements that turn the committed lines of `key` into `lines`: the committed run the new transcript starts
 * with stays, lines before it (trimmed from the front) and after it (changed) are deleted, the rest is inserted
 * after the last number used. An answered message usually inserts its two lines and nothing else.
 */
export function transcriptStatements(
  key: string,
  committed: Lines,
  lines: ReadonlyArray<{ at: number; json: string }>,
  /** Given, receives the rows there are once the statements ran. */
  after: Lines = [],
): Array<{ sql: string; values: Array<string | number> }> {
  if (lines.length === 0) return committed.length === 0 ? [] : [{ sql: 'DELETE FROM bridge_transcript WHERE key = ?', values: [key] }];
  let start = committed.findIndex((row) => row.body === lines[0]!.json);
  if (start < 0) start = committed.length;
  let same = 0;
  while (same < lines.length && start + same < committed.length && committed[start + same]!.body === lines[same]!.json) same += 1;
  const statements: Array<{ sql: string; values: Array<string | number> }> = [];
  if (start > 0) {
    const before = start < committed.length ? committed[start]!.seq : committed[committed.length - 1]!.seq + 1;
    statements.push({ sql: 'DELETE FROM bridge_transcript WHERE key = ? AND seq < ?', values: [key, before] });
  }
  if (start + same < committed.length) {
    statements.push({ sql: 'DELETE FROM bridge_transcript WHERE key = ? AND seq >= ?', values: [key, committed[start + same]!.seq] });
  }
  let next = committed.length === 0 ? 0 : committed[committed.length - 1]!.seq + 1;
  after.push(...committed.slice(start, start + same));
  for (const line of lines.slice(same)) {
    after.push({ seq: next, body: line.json });
    statements.push({
      sql: 'INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)',
      values: [key, next, line.at, line.json],
    });
    next += 1;
  }
  return statements;
}

/** Reads, applies `fn` and writes the result (checked first); `fn` returning undefined leaves the record as it is. */
export async function updateConversationRows(
  db: SqlSession,
  key: string,
  fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  options: ResolvedStoreOptions,
): Promise<ConversationRecord | undefined> {
  const { record, rows } = await readConversation(db, key);
  const next = fn(record);
  if (next === undefined) return record;
  const checked = checkConversation(next, options);
  if (checked.key !== key)
    throw new StoreError('invalid', `updateConversation(${key}) returned a record for ${checked.key}; nothing was changed.`);
  // A new or archived conversation has no live transcript rows.
  return writeConversation(db, checked, rows ?? { rows: [] });
}

/** A listing's filter, checked before anything is read. */
export function checkFilter(filter: ConversationFilter): { owner?: Owner; since?: number; newest?: number } {
  const owner = filter.owner === undefined ? undefined : parseInput(ownerSchema, filter.owner, 'Owner filter');
  const since = filter.updatedSince;
  if (since !== undefined && !Number.isFinite(since)) {
    throw new StoreError('invalid', 'updatedSince must be a number of epoch milliseconds; nothing was read.');
  }
  const newest = filter.newest;
  if (newest !== undefined && !(Number.isInteger(newest) && newest >= 0)) {
    throw new StoreError('invalid', 'newest must be a whole number of conversations; nothing was read.');
  }
  return { owner, since, newest };
}

/** The keys of the live conversations the filter picks (the newest first when `newest` is given). */
export async function selectConversationKeys(
  db: SqlSession,
  filter: { owner?: Owner; since?: number; newest?: number },
): Promise<string[]> {
  let sql = 'SELECT key FROM bridge_conversations WHERE archived_at IS NULL';
  const values: Array<string | number> = [];
  if (filter.owner !== undefined) {
    sql += ' AND owner = ?';
    values.push(filter.owner);
  }
  if (filter.since !== undefined) {
    sql += ' AND updated_at >= ?';
    values.push(filter.since);
  }
  if (filter.newest !== undefined) {
    sql += ' ORDER BY updated_at DESC LIMIT ?';
    values.push(filter.newest);
  }
  return (await db.all<{ key: string }>(sql, values)).map((row) => row.key);
}

/**
 * Moves the live conversations untouched since `beforeMs` and with nothing in flight (no mention waiting, no effect
 * pending) to the archive: a copy in `bridge_archive`, the row keeps only `archived_at`. Returns how many.
 */
export async function archiveConversations(db: SqlSession, beforeMs: number, now: number): Promise<number> {
  const keys = await db.all<{ key: string }>(
    `SELECT key FROM bridge_conversations c WHERE archived_at IS NULL AND body IS NOT NULL AND updated_at < ?
       AND NOT EXISTS (SELECT 1 FROM bridge_mentions m WHERE m.key = c.key)
       AND NOT EXISTS (SELECT 1 FROM bridge_effects e WHERE e.contact_key = c.key AND e.status = 'pending')`,
    [beforeMs],
  );
  // One at a time: memory holds one conversation, not every one archived.
  for (const { key } of keys) {
    const row = (await db.get<{ body: string; dialog: string | null }>('SELECT body, dialog FROM bridge_conversations WHERE key = ?', [
      key,
    ]))!;
    const lines = (await transcriptRows(db, key)).map((r) => r.body);
    await db.write('INSERT INTO bridge_archive (key, body) VALUES (?, ?)', [key, joinConversation(row.body, lines, row.dialog)]);
    await db.write('UPDATE bridge_conversations SET owner = NULL, updated_at = NULL, archived_at = ?, body = NULL WHERE key = ?', [
      now,
      key,
    ]);
    await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
    db.recent.delete(key);
  }
  return keys.length;
}
