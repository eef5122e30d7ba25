import type { ConversationRecord } from './records.js';
import type { SqlStatement } from './sql-commit.js';

/**
 * A conversation's transcript as appended rows of `bridge_transcript` (one line a row, numbered per conversation),
 * so an answered message writes its new lines rather than the whole transcript again. The conversation's own row
 * holds the rest of the record.
 */

/** The fields a turn changes (dates, the latest mention): a column of their own, so a turn rewrites them alone. */
const TURN_FIELDS = ['updatedAt', 'lastInboundAt', 'lastBotReplyAt', 'lastMentionId', 'lastMentionTopicId'] as const;

/** A conversation's row texts (`bridge_conversations`: `body`, `turn`, `dialog`) and transcript lines. */
export interface ConversationParts {
  /** The record without its turn fields, dialog and transcript. */
  body: string;
  /** The turn fields as a JSON object. */
  turn: string;
  /** The dialog's JSON; null when it has none. */
  dialog: string | null;
  lines: Array<{ at: number; json: string }>;
}

export function splitConversation(json: string): ConversationParts {
  const { transcript, dialog, ...rest } = JSON.parse(json) as ConversationRecord;
  const turn: Record<string, unknown> = {};
  for (const field of TURN_FIELDS) {
    turn[field] = rest[field];
    delete rest[field];
  }
  return {
    body: JSON.stringify(rest),
    turn: JSON.stringify(turn),
    dialog: dialog === undefined ? null : JSON.stringify(dialog),
    lines: transcript.map((line) => ({ at: line.at, json: JSON.stringify(line) })),
  };
}

/**
 * The conversation's JSON again from its row's texts and its lines, in order. A row written before schema step 3
 * has its turn fields and dialog in `body` (both null).
 */
export function joinConversation(row: { body: string; turn: string | null; dialog: string | null }, lines: readonly string[]): string {
  const turn = row.turn === null || row.turn === '{}' ? '' : `,${row.turn.slice(1, -1)}`;
  const dialog = row.dialog === null ? '' : `,"dialog":${row.dialog}`;
  return `${row.body.slice(0, -1)}${turn}${dialog},"transcript":[${lines.join(',')}]}`;
}

export const TRANSCRIPT_ROWS_SQL = 'SELECT seq, body FROM bridge_transcript WHERE key = ? ORDER BY seq';
export const DELETE_TRANSCRIPT_SQL = 'DELETE FROM bridge_transcript WHERE key = ?';
/** Retention by date (`bridge_transcript_at`): the lines of each conversation it deletes, then the DELETE. */
export const TRANSCRIPT_RETENTION_SQL = {
  count: 'SELECT key, count(*) AS n FROM bridge_transcript WHERE at < ? GROUP BY key',
  delete: 'DELETE FROM bridge_transcript WHERE at < ?',
};

/**
 * The statements that turn the committed lines of `key` into `lines`: the committed run the new transcript starts
 * with stays, lines before it (trimmed from the front) and after it (changed) are deleted, the rest is inserted
 * after the last number used. An answered message usually inserts its two lines and nothing else.
 */
export function transcriptStatements(
  key: string,
  committed: ReadonlyArray<{ seq: number; body: string }>,
  lines: ReadonlyArray<{ at: number; json: string }>,
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
  for (const line of lines.slice(same)) {
    statements.push({
      sql: 'INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)',
      values: [key, next, line.at, line.json],
    });
    next += 1;
  }
  return statements;
}
