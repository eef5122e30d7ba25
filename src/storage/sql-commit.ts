import { coreFileText } from './hot-state.js';
import type { ConversationSlot, HotState } from './hot-state.js';
import { mentionRef } from './records.js';
import type { AuditEntry, Effect, Escalation, InboundMention } from './records.js';
import type { TrackedMap } from './tracked-map.js';
import { EFFECT_STATE_FIELDS } from './sql-state.js';
import type { LoadedState } from './sql-state.js';
import { DELETE_TRANSCRIPT_SQL, TRANSCRIPT_ROWS_SQL, splitConversation, transcriptStatements } from './sql-transcript.js';

/** One statement of a commit, with `?` for its values (the PostgreSQL store numbers them). */
export interface SqlStatement {
  sql: string;
  values: Array<string | number | null>;
  /** Run instead when the statement changed no row (a status UPDATE of an effect not yet written as it is). */
  orElse?: SqlStatement;
}

/** What a statement did: the rows it changed, or the rows a read returned. */
export interface SqlResult {
  changes: number;
  rows: unknown[];
}

/** One commit, taken from the state in one synchronous cut. */
export interface SqlWrite {
  statements: SqlStatement[];
  /** The transcripts to bring to these lines (the commit reads the committed ones to compare: `commitSteps`). */
  transcripts: Array<{ key: string; lines: Array<{ at: number; json: string }> }>;
  bytes: number;
  /** Gives the changed keys back after a failed commit. */
  undo(): void;
  /** Records what the rows now hold, once the commit returned. */
  done(): void;
}

/** An INSERT of `columns` that replaces the row of the same first column (its key). */
function upsert(table: string, columns: string[]): string {
  const set = columns.slice(1).map((column) => `${column} = excluded.${column}`);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (${columns[0]}) DO UPDATE SET ${set.join(', ')}`;
}
const SQL = {
  core: upsert('bridge_core', ['id', 'body']),
  conversation: upsert('bridge_conversations', ['key', 'owner', 'updated_at', 'archived_at', 'body', 'turn', 'dialog']),
  deleteConversation: 'DELETE FROM bridge_conversations WHERE key = ?',
  seen: upsert('bridge_seen', ['ref', 'at']),
  deleteSeen: 'DELETE FROM bridge_seen WHERE ref = ?',
  effect: upsert('bridge_outbox', ['key', 'seq', 'body', 'state']),
  effectState: 'UPDATE bridge_outbox SET state = ? WHERE key = ? AND seq = ?',
  deleteEffect: 'DELETE FROM bridge_outbox WHERE key = ?',
  inbox: upsert('bridge_inbox', ['ref', 'body']),
  deleteInbox: 'DELETE FROM bridge_inbox WHERE ref = ?',
  escalation: upsert('bridge_escalations', ['id', 'body']),
  deleteEscalation: 'DELETE FROM bridge_escalations WHERE id = ?',
  audit: 'INSERT INTO bridge_audit (body) VALUES (?)',
};
const NO_ESCALATIONS = new Map<string, Escalation>();

/** How many committed conversations a store reading on demand keeps in memory, the most recently written. */
export const RECENT_CONVERSATIONS = 1000;

/** A conversation as last committed: the slot written and its row's texts. */
interface Committed {
  slot: ConversationSlot;
  body: string;
  turn: string;
  dialog: string | null;
}

/**
 * The write side of the shared SQL layout, the same for SQLite and PostgreSQL: a commit writes what changed since
 * the last one, as small as it can. The core row (meta, cursors) only when its text changed; an inbox mention or an
 * escalation when it is new, replaced or gone; a conversation's `body` (the record without dialog and transcript)
 * and `dialog` each only when it changed, its transcript as the lines appended (`sql-transcript.ts`); an effect's
 * status change as an UPDATE of its `state` alone; the audit entries waiting, in the same transaction.
 *
 * The conversations committed most recently stay in memory (a conversation in play is read and written several times
 * a message); with `leaveCold`, older ones are left cold, only their owner and date in memory, unless they changed
 * since their commit. Memory follows the conversations in play, not the conversations stored.
 */
export class SqlCommits {
  private lastCore: string | undefined;
  private dropShards: boolean;
  private readonly inbox: Map<string, InboundMention>;
  private readonly escalations: Map<string, Escalation>;
  private readonly recent = new Map<string, Committed>();

  /** `loaded`: what the rows held at open (none: a new database). */
  constructor(
    private readonly leaveCold: boolean,
    loaded?: Pick<LoadedState, 'inboxRows' | 'escalationRows'> & { core: string | undefined; shards: boolean },
  ) {
    this.lastCore = loaded?.core;
    this.dropShards = loaded?.shards ?? false;
    this.inbox = loaded?.inboxRows ?? new Map();
    this.escalations = loaded?.escalationRows ?? new Map();
  }

  take(state: HotState, audit: readonly AuditEntry[] = []): SqlWrite {
    const statements: SqlStatement[] = [];
    const transcripts: SqlWrite['transcripts'] = [];
    const taken: Array<[Pick<TrackedMap<unknown>, 'markChanged'>, string[]]> = [];
    const takeKeys = <V>(map: TrackedMap<V>): string[] => {
      const keys = map.takeChanged();
      taken.push([map, keys]);
      return keys;
    };
    const core = coreFileText({ ...state, inbox: [], escalations: NO_ESCALATIONS }, 0);
    if (core !== this.lastCore) statements.push({ sql: SQL.core, values: [1, core] });
    const inbox = diffRows(this.inbox, keyedInbox(state.inbox), SQL.inbox, SQL.deleteInbox, statements);
    const escalations = diffRows(this.escalations, state.escalations, SQL.escalation, SQL.deleteEscalation, statements);
    const written: Array<[string, Committed | undefined]> = [];
    for (const key of takeKeys(state.conversations)) {
      const slot = state.conversations.get(key);
      if (slot === undefined || 'archivedAt' in slot) {
        statements.push(
          slot === undefined
            ? { sql: SQL.deleteConversation, values: [key] }
            : { sql: SQL.conversation, values: [key, null, null, slot.archivedAt, null, null, null] },
          { sql: DELETE_TRANSCRIPT_SQL, values: [key] },
        );
        written.push([key, undefined]);
      } else if ('json' in slot) {
        const { lines, ...texts } = splitConversation(slot.json);
        statements.push(...conversationStatement(key, slot, texts, this.recent.get(key)));
        transcripts.push({ key, lines });
        written.push([key, { slot, ...texts }]);
      }
      // A cold slot is its row as committed: nothing to write.
    }
    for (const ref of takeKeys(state.seen)) {
      const at = state.seen.get(ref);
      statements.push(at === undefined ? { sql: SQL.deleteSeen, values: [ref] } : { sql: SQL.seen, values: [ref, at] });
    }
    for (const key of takeKeys(state.outbox)) statements.push(effectStatement(key, state.outbox.get(key)));
    for (const entry of audit) statements.push({ sql: SQL.audit, values: [JSON.stringify(entry)] });
    if (this.dropShards) statements.push({ sql: 'DELETE FROM bridge_shards', values: [] });
    return {
      statements,
      transcripts,
      bytes: 0,
      undo: () => {
        for (const [table, keys] of taken) table.markChanged(keys);
      },
      done: () => {
        this.lastCore = core;
        this.dropShards = false;
        inbox();
        escalations();
        this.committed(state, written);
      },
    };
  }

  private committed(state: HotState, written: Array<[string, Committed | undefined]>): void {
    for (const [key, committed] of written) {
      this.recent.delete(key);
      if (committed) this.recent.set(key, committed);
    }
    for (const [key, { slot }] of this.recent) {
      if (this.recent.size <= RECENT_CONVERSATIONS) break;
      this.recent.delete(key);
      if (this.leaveCold && state.conversations.get(key) === slot && 'json' in slot) {
        state.conversations.replaceQuietly(key, { owner: slot.owner, updatedAt: slot.updatedAt });
      }
    }
  }
}

/** The whole row when its committed texts are not known, else an UPDATE of the texts that changed (if any). */
function conversationStatement(
  key: string,
  slot: { owner: string; updatedAt: number },
  texts: Omit<Committed, 'slot'>,
  before: Committed | undefined,
): SqlStatement[] {
  const { body, turn, dialog } = texts;
  if (before === undefined) return [{ sql: SQL.conversation, values: [key, slot.owner, slot.updatedAt, null, body, turn, dialog] }];
  const sets: string[] = [];
  const values: SqlStatement['values'] = [];
  const set = (changed: boolean, columns: string[], of: SqlStatement['values']) => {
    if (changed) sets.push(...columns.map((column) => `${column} = ?`)) && values.push(...of);
  };
  set(body !== before.body, ['owner', 'body'], [slot.owner, body]);
  set(turn !== before.turn, ['updated_at', 'turn'], [slot.updatedAt, turn]);
  set(dialog !== before.dialog, ['dialog'], [dialog]);
  return sets.length === 0 ? [] : [{ sql: `UPDATE bridge_conversations SET ${sets.join(', ')} WHERE key = ?`, values: [...values, key] }];
}

function keyedInbox(inbox: readonly InboundMention[]): Map<string, InboundMention> {
  return new Map(inbox.map((mention) => [mentionRef(mention.topicId, mention.id), mention]));
}

/**
 * The statements that bring the rows `last` (as committed) to `now`, compared by identity (the state replaces a
 * value, never changes it in place); returns what makes `last` the same as `now` once the commit returned.
 */
function diffRows<V>(last: Map<string, V>, now: ReadonlyMap<string, V>, upsert: string, remove: string, out: SqlStatement[]): () => void {
  const changed: Array<[string, V | undefined]> = [];
  for (const [key, value] of now) if (last.get(key) !== value) changed.push([key, value]);
  for (const key of last.keys()) if (!now.has(key)) changed.push([key, undefined]);
  for (const [key, value] of changed) {
    out.push(value === undefined ? { sql: remove, values: [key] } : { sql: upsert, values: [key, JSON.stringify(value)] });
  }
  return () => {
    for (const [key, value] of changed) {
      if (value === undefined) last.delete(key);
      else last.set(key, value);
    }
  };
}

/**
 * A new effect is written whole; one that was (its status changed since) only its status fields, unless its row is
 * not there as that effect (not yet committed, or an older one under its key): then whole.
 */
function effectStatement(key: string, effect: Effect | undefined): SqlStatement {
  if (effect === undefined) return { sql: SQL.deleteEffect, values: [key] };
  const whole = { sql: SQL.effect, values: [key, effect.seq, JSON.stringify(effect), null] };
  // Never performed (new, or a decision's mark, recorded done): not written before but whole.
  if (effect.attempts === 0) return whole;
  const state = Object.fromEntries(EFFECT_STATE_FIELDS.map((field) => [field, effect[field]]));
  return { sql: SQL.effectState, values: [JSON.stringify(state), key, effect.seq], orElse: whole };
}

/**
 * A commit's statements in order, for the store to run in one transaction: it passes each one's result back (the
 * rows changed, or a read's rows), so the same steps drive SQLite's synchronous calls and PostgreSQL's awaited ones.
 * Adds the bytes of the values written to `write.bytes` (a number counts 8).
 */
export function* commitSteps(write: SqlWrite): Generator<SqlStatement, void, SqlResult> {
  for (const statement of write.statements) {
    write.bytes += statementBytes(statement);
    const { changes } = yield statement;
    if (statement.orElse && changes === 0) {
      write.bytes += statementBytes(statement.orElse);
      yield statement.orElse;
    }
  }
  for (const { key, lines } of write.transcripts) {
    const { rows } = yield { sql: TRANSCRIPT_ROWS_SQL, values: [key] };
    for (const statement of transcriptStatements(key, rows as Array<{ seq: number; body: string }>, lines)) {
      write.bytes += statementBytes(statement);
      yield statement;
    }
  }
}

function statementBytes(statement: SqlStatement): number {
  let bytes = 0;
  for (const value of statement.values) bytes += typeof value === 'string' ? Buffer.byteLength(value) : 8;
  return bytes;
}
