import { jsonTextOf, parseInput, validateInput } from '../parse-input.js';
import { conversationKey, conversationSchema, ownerSchema } from '../records.js';
import type { ConversationRecord, Owner } from '../records.js';
import { TRANSCRIPT_ROWS_SQL, joinConversation, transcriptStatements } from '../sql-transcript.js';
import { StoreError } from '../store-error.js';
import type { ResolvedStoreOptions } from '../store-options.js';
import type { ConversationFilter } from '../store.js';
import type { ConversationRows, SqlSession } from './sql-session.js';

/**
 * A conversation's rows: `bridge_conversations` (key, owner, updated_at, archived_at, and the record without its
 * transcript as `body`), each transcript line a row of `bridge_transcript`. An archived one keeps only `archived_at`;
 * its copies are rows of `bridge_archive` (the latest is the one read).
 */
export interface Lines {
  rows: Array<{ seq: number; body: string }>;
  /** The dialog column as committed; unknown when absent. */
  dialog?: string | null;
}

interface Row {
  archived_at: number | null;
  body: string | null;
  dialog: string | null;
}

/** The conversation as stored, with its committed transcript rows (to write the next version against). */
export async function readConversation(
  db: SqlSession,
  key: string,
): Promise<{ record: ConversationRecord | undefined; lines: Lines; archived: boolean }> {
  const hit = db.recent.get(key);
  if (hit) {
    db.recent.use(key, hit);
    return { record: recordOf(hit), lines: hit, archived: false };
  }
  const row = await db.get<Row>('SELECT archived_at, body, dialog FROM bridge_conversations WHERE key = ?', [key]);
  if (!row) return { record: undefined, lines: { rows: [] }, archived: false };
  if (row.archived_at !== null || row.body === null) {
    const copy = await db.get<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
    return { record: copy && parseRecord(copy.body, 'bridge_archive'), lines: { rows: [] }, archived: true };
  }
  const rows = (await db.all<{ seq: number; body: string }>(TRANSCRIPT_ROWS_SQL, [key])).map((r) => ({ seq: Number(r.seq), body: r.body }));
  const found = { body: row.body, dialog: row.dialog, rows };
  db.recent.use(key, found);
  return { record: recordOf(found), lines: found, archived: false };
}

function recordOf(rows: ConversationRows): ConversationRecord {
  return parseRecord(
    joinConversation(
      rows.body,
      rows.rows.map((r) => r.body),
      rows.dialog,
    ),
    'bridge_conversations',
  );
}

/** A live conversation's JSON text (body and lines joined), for the archive; undefined when not live. */
export async function liveConversationText(db: SqlSession, key: string): Promise<string | undefined> {
  const row = await db.get<Row>('SELECT archived_at, body, dialog FROM bridge_conversations WHERE key = ?', [key]);
  if (!row || row.archived_at !== null || row.body === null) return undefined;
  const lines = (await db.all<{ body: string }>(TRANSCRIPT_ROWS_SQL, [key])).map((r) => r.body);
  return joinConversation(row.body, lines, row.dialog);
}

function parseRecord(text: string, table: string): ConversationRecord {
  try {
    return JSON.parse(text) as ConversationRecord;
  } catch {
    throw new StoreError('corrupt', `A conversation row of ${table} is not valid JSON.`);
  }
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
 * Writes a checked record: its row, and of its transcript only the lines that changed against the committed ones.
 * Returns the record given.
 */
export async function writeConversation(db: SqlSession, record: ConversationRecord, lines: Lines | undefined): Promise<ConversationRecord> {
  const { transcript, dialog, ...rest } = record;
  const body = jsonTextOf(rest, 'Conversation');
  // The dialog's JSON text (none for a value JSON leaves out, such as undefined), written only when it changed.
  const dialogWrapped = jsonTextOf({ dialog }, 'Conversation');
  const dialogText = dialogWrapped === '{}' ? null : dialogWrapped.slice('{"dialog":'.length, -1);
  const lineTexts = transcript.map((line) => ({ at: line.at, json: JSON.stringify(line) }));
  const committed =
    lines?.rows ??
    (await db.all<{ seq: number; body: string }>(TRANSCRIPT_ROWS_SQL, [record.key])).map((r) => ({ seq: Number(r.seq), body: r.body }));
  const upsert =
    'INSERT INTO bridge_conversations (key, owner, updated_at, archived_at, body, dialog) VALUES (?, ?, ?, NULL, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, archived_at = NULL, body = excluded.body';
  if (lines?.dialog !== undefined && lines.dialog === dialogText) {
    // The row exists (its dialog is known): the dialog stays as it is.
    await db.write(upsert, [record.key, record.owner, record.updatedAt, body, null]);
  } else {
    await db.write(`${upsert}, dialog = excluded.dialog`, [record.key, record.owner, record.updatedAt, body, dialogText]);
  }
  const rows: ConversationRows['rows'] = [];
  for (const statement of transcriptStatements(record.key, committed, lineTexts, rows)) await db.write(statement.sql, statement.values);
  db.recent.use(record.key, { body, dialog: dialogText, rows });
  // The checked record as is (zod's copy; its dialog is the caller's own value): the store keeps only the text.
  return record;
}

/** Reads, applies `fn` and writes the result (checked first); `fn` returning undefined leaves the record as it is. */
export async function updateConversationRows(
  db: SqlSession,
  key: string,
  fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  options: ResolvedStoreOptions,
): Promise<ConversationRecord | undefined> {
  const { record, lines, archived } = await readConversation(db, key);
  const next = fn(record);
  if (next === undefined) return record;
  const checked = checkConversation(next, options);
  if (checked.key !== key)
    throw new StoreError('invalid', `updateConversation(${key}) returned a record for ${checked.key}; nothing was changed.`);
  return writeConversation(db, checked, archived ? { rows: [] } : lines);
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
  const where = ['archived_at IS NULL'];
  const values: Array<string | number> = [];
  if (filter.owner !== undefined) {
    where.push('owner = ?');
    values.push(filter.owner);
  }
  if (filter.since !== undefined) {
    where.push('updated_at >= ?');
    values.push(filter.since);
  }
  let sql = `SELECT key FROM bridge_conversations WHERE ${where.join(' AND ')}`;
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
    `SELECT key FROM bridge_conversations c WHERE archived_at IS NULL AND updated_at < ?
       AND NOT EXISTS (SELECT 1 FROM bridge_mentions m WHERE m.key = c.key)
       AND NOT EXISTS (SELECT 1 FROM bridge_effects e WHERE e.contact_key = c.key AND e.status = 'pending')`,
    [beforeMs],
  );
  for (const { key } of keys) {
    const text = await liveConversationText(db, key);
    if (text === undefined) continue;
    await db.write('INSERT INTO bridge_archive (key, body) VALUES (?, ?)', [key, text]);
    await db.write('UPDATE bridge_conversations SET owner = NULL, updated_at = NULL, archived_at = ?, body = NULL WHERE key = ?', [
      now,
      key,
    ]);
    await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
    db.recent.delete(key);
  }
  return keys.length;
}
