import type { ConversationRecord } from './records.js';

/** One statement, with `?` for its values. */
export interface SqlStatement {
  sql: string;
  values: Array<string | number | null>;
}

/**
 * A conversation's transcript as appended rows of `bridge_transcript` (one line a row, numbered per conversation),
 * so an answered message writes its new lines rather than the whole transcript again. The conversation's own row
 * holds the rest of the record.
 */

/** A conversation's JSON split into its row's body (no transcript) and each line's JSON with its date. */
export function splitConversation(json: string): { body: string; lines: Array<{ at: number; json: string }> } {
  const { transcript, ...rest } = JSON.parse(json) as ConversationRecord;
  return { body: JSON.stringify(rest), lines: transcript.map((line) => ({ at: line.at, json: JSON.stringify(line) })) };
}

/**
 * The conversation's JSON again from its row's body (a JSON object without `transcript`, and without `dialog` when
 * the dialog is in a column of its own: `dialog`, its JSON text) and its lines, in order.
 */
export function joinConversation(body: string, lines: readonly string[], dialog: string | null = null): string {
  return `${body.slice(0, -1)}${dialog === null ? '' : `,"dialog":${dialog}`},"transcript":[${lines.join(',')}]}`;
}

export const TRANSCRIPT_ROWS_SQL = 'SELECT seq, body FROM bridge_transcript WHERE key = ? ORDER BY seq';
export const DELETE_TRANSCRIPT_SQL = 'DELETE FROM bridge_transcript WHERE key = ?';

/**
 * The statements that turn the committed lines of `key` into `lines`: the committed run the new transcript starts
 * with stays, lines before it (trimmed from the front) and after it (changed) are deleted, the rest is inserted
 * after the last number used. An answered message usually inserts its two lines and nothing else.
 */
export function transcriptStatements(
  key: string,
  committed: ReadonlyArray<{ seq: number; body: string }>,
  lines: ReadonlyArray<{ at: number; json: string }>,
  /** Given, receives the rows there are once the statements ran. */
  after?: Array<{ seq: number; body: string }>,
): SqlStatement[] {
  if (lines.length === 0) return committed.length === 0 ? [] : [{ sql: DELETE_TRANSCRIPT_SQL, values: [key] }];
  let start = committed.findIndex((row) => row.body === lines[0]!.json);
  if (start < 0) start = committed.length;
  let same = 0;
  while (same < lines.length && start + same < committed.length && committed[start + same]!.body === lines[same]!.json) same += 1;
  const statements: SqlStatement[] = [];
  if (start > 0) {
    const before = start < committed.length ? committed[start]!.seq : committed[committed.length - 1]!.seq + 1;
    statements.push({ sql: 'DELETE FROM bridge_transcript WHERE key = ? AND seq < ?', values: [key, before] });
  }
  if (start + same < committed.length) {
    statements.push({ sql: 'DELETE FROM bridge_transcript WHERE key = ? AND seq >= ?', values: [key, committed[start + same]!.seq] });
  }
  let next = committed.length === 0 ? 0 : committed[committed.length - 1]!.seq + 1;
  after?.push(...committed.slice(start, start + same));
  for (const line of lines.slice(same)) {
    after?.push({ seq: next, body: line.json });
    statements.push({
      sql: 'INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)',
      values: [key, next, line.at, line.json],
    });
    next += 1;
  }
  return statements;
}
