import { jsonTextOf, validateInput } from '../parse-input.js';
import { conversationKey, conversationSchema } from '../records.js';
import type { ConversationRecord, TranscriptLine } from '../records.js';
import { StoreError } from '../store-error.js';
import type { ResolvedStoreOptions } from '../store-options.js';
import type { ConversationRows, SqlSession } from './sql-session.js';

/**
 * A conversation's rows: `bridge_conversations` (key, owner, updated_at, archived_at, the record without its
 * transcript as `body`, the dialog state as `dialog`), each transcript line a row of `bridge_transcript` (numbered
 * per conversation), so an answered message writes its new lines rather than the whole transcript again. An
 * archived one keeps only `archived_at`; its copies are rows of `bridge_archive` (the latest is the one read).
 */
type Lines = ConversationRows['rows'];

function transcriptRows(db: SqlSession, key: string): Lines | Promise<Lines> {
  return db.all<Lines[number]>('SELECT seq, body FROM bridge_transcript WHERE key = ? ORDER BY seq', [key]);
}

/** The conversation's JSON from its rows: the body (without `transcript`, and without `dialog` when that has its column) and its lines. */
export function joinConversation({ body, dialog, rows }: ConversationRows): string {
  const lines = rows.map((row) => row.body).join(',');
  return `${body.slice(0, -1)}${dialog === null ? '' : `,"dialog":${dialog}`},"transcript":[${lines}]}`;
}

function parseRecord(text: string, table: string): ConversationRecord {
  try {
    return JSON.parse(text) as ConversationRecord;
  } catch {
    throw new StoreError('corrupt', `A conversation row of ${table} is not valid JSON.`);
  }
}

/** A live conversation's rows as the open transaction has them; 'archived' for one archived (or a row without its record). */
async function liveRows(db: SqlSession, key: string): Promise<ConversationRows | 'archived' | undefined> {
  const known = db.recent.get(key);
  if (known) return known;
  const row = await db.get<{ archived_at: number | null; body: string | null; dialog: string | null }>(
    'SELECT archived_at, body, dialog FROM bridge_conversations WHERE key = ?',
    [key],
  );
  if (!row) return undefined;
  if (row.archived_at !== null || row.body === null) return 'archived';
  return { body: row.body, dialog: row.dialog, rows: await transcriptRows(db, key) };
}

/** The latest archived copy of a conversation. */
export async function archivedCopy(db: SqlSession, key: string): Promise<ConversationRecord | undefined> {
  const copy = await db.get<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
  return copy && parseRecord(copy.body, 'bridge_archive');
}

/** The conversation as stored; a live one's rows stay at hand (`db.recent`), to write its next version against. */
export async function readConversation(
  db: SqlSession,
  key: string,
): Promise<{ record: ConversationRecord | undefined; archived: boolean }> {
  const rows = await liveRows(db, key);
  if (rows === 'archived') return { record: await archivedCopy(db, key), archived: true };
  if (rows) db.recent.use(key, rows);
  return { record: rows && parseRecord(joinConversation(rows), 'bridge_conversations'), archived: false };
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
  const known = live ?? db.recent.get(record.key);
  // The dialog column as the open transaction has it; unknown (undefined) when the rows were not read.
  const keepDialog = known?.dialog === dialogText;
  await db.write(
    `INSERT INTO bridge_conversations (key, owner, updated_at, archived_at, body, dialog) VALUES (?, ?, ?, NULL, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, archived_at = NULL, body = excluded.body${keepDialog ? '' : ', dialog = excluded.dialog'}`,
    [record.key, record.owner, record.updatedAt, body, keepDialog ? null : dialogText],
  );
  const rows = await writeTranscript(db, record.key, known?.rows ?? (await transcriptRows(db, record.key)), transcript);
  db.recent.use(record.key, { body, dialog: dialogText, rows });
  return record;
}

/**
 * Turns the committed lines of `key` into `transcript`: the committed run the new transcript starts with stays, the
 * rows around it (trimmed from the front, changed at the end) are deleted, the rest is inserted after the last
 * number used. An answered message usually inserts its two lines and nothing else. Returns the rows there are then.
 */
export async function writeTranscript(
  db: Pick<SqlSession, 'write'>,
  key: string,
  committed: Lines,
  transcript: readonly TranscriptLine[],
): Promise<Lines> {
  const json = transcript.map((line) => JSON.stringify(line));
  let start = committed.findIndex((row) => row.body === json[0]);
  if (start < 0) start = committed.length;
  let same = 0;
  while (same < json.length && committed[start + same]?.body === json[same]) same += 1;
  const rows = committed.slice(start, start + same);
  const next = (committed.at(-1)?.seq ?? -1) + 1;
  if (rows.length < committed.length) {
    // Every row when none is kept.
    await db.write('DELETE FROM bridge_transcript WHERE key = ? AND (seq < ? OR seq > ?)', [
      key,
      rows[0]?.seq ?? next,
      rows.at(-1)?.seq ?? -1,
    ]);
  }
  for (let i = same; i < json.length; i += 1) {
    const row = { seq: next + i - same, body: json[i]! };
    await db.write('INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)', [key, row.seq, transcript[i]!.at, row.body]);
    rows.push(row);
  }
  return rows;
}

/** Reads, applies `fn` and writes the result (checked first); `fn` returning undefined leaves the record as it is. */
export async function updateConversationRows(
  db: SqlSession,
  key: string,
  fn: (current: ConversationRecord | undefined) => ConversationRecord | undefined,
  options: ResolvedStoreOptions,
): Promise<ConversationRecord | undefined> {
  const { record, archived } = await readConversation(db, key);
  const next = fn(record);
  if (next === undefined) return record;
  const checked = checkConversation(next, options);
  if (checked.key !== key)
    throw new StoreError('invalid', `updateConversation(${key}) returned a record for ${checked.key}; nothing was changed.`);
  // A new or archived conversation has no live transcript rows.
  return writeConversation(db, checked, record && !archived ? undefined : { rows: [] });
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
    const rows = (await liveRows(db, key)) as ConversationRows;
    await db.write('INSERT INTO bridge_archive (key, body) VALUES (?, ?)', [key, joinConversation(rows)]);
    await db.write('UPDATE bridge_conversations SET owner = NULL, updated_at = NULL, archived_at = ?, body = NULL WHERE key = ?', [
      now,
      key,
    ]);
    await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
    db.recent.delete(key);
  }
  return keys.length;
}
