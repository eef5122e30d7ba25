import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { HotState } from '../hot-state.js';
import type { SqlResult, SqlStatement } from '../sql-commit.js';
import { SqlPersistence } from '../sql-persistence.js';
import type { SqlSteps } from '../sql-persistence.js';
import type { ConversationRow, EffectRow, LoadedState, ShardRow } from '../sql-state.js';
import { TRANSCRIPT_RETENTION_SQL, TRANSCRIPT_ROWS_SQL, joinConversation } from '../sql-transcript.js';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';

const WHERE = 'the SQLite store';

/**
 * The shared SQL layout (`../sql-persistence.ts`) in one SQLite file, through one connection the store owns. Each
 * write is one transaction; with `journal_mode=WAL` and `synchronous=FULL` SQLite syncs the WAL before COMMIT
 * returns, so a committed write survives a process crash and a power cut. The API is synchronous: a write holds the
 * event loop for its fsync, which the store's group commit shares among every caller waiting.
 *
 * Conversations are read on demand: the open loads only their owners and dates (and the seen ids, effects, inbox,
 * escalations and core); the ones committed most recently stay in memory, older ones are left cold again
 * (`SqlCommits`).
 */
export class SqlitePersistence extends SqlPersistence {
  /** Statements compiled once: a commit runs the same few again and again. */
  private readonly prepared = new Map<string, StatementSync>();
  constructor(
    private readonly db: DatabaseSync,
    logger: StoreLogger,
    onRelease: () => Promise<void>,
  ) {
    super(WHERE, logger, onRelease, true);
  }

  load(now: number): LoadedState {
    const core = this.read<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1')[0]?.body;
    const shards = this.read<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    // As one JSON text each: node:sqlite makes a row object slowly, JSON.parse makes 50,000 arrays quickly (2-3x).
    const conversations = this.json<Array<[string, string | null, number | null, number | null]>>(
      'SELECT json_group_array(json_array(key, owner, updated_at, archived_at)) AS j FROM bridge_conversations',
    ).map(([key, owner, updated_at, archived_at]): ConversationRow => ({ key, owner, updated_at, archived_at }));
    const seen = this.json<Array<[string, number]>>('SELECT json_group_array(json_array(ref, at)) AS j FROM bridge_seen').map(
      ([ref, at]) => ({ ref, at }),
    );
    const outbox = this.read<EffectRow>('SELECT body, state FROM bridge_outbox');
    const inbox = this.read<{ body: string }>('SELECT body FROM bridge_inbox');
    const escalations = this.read<{ body: string }>('SELECT body FROM bridge_escalations');
    return this.loaded({ core, shards, conversations, seen, outbox, inbox, escalations }, now);
  }

  async readCold(key: string): Promise<string | undefined> {
    const sql = 'SELECT body, turn, dialog FROM bridge_conversations WHERE key = ? AND archived_at IS NULL';
    const row = this.read<{ body: string | null; turn: string | null; dialog: string | null }>(sql, [key])[0];
    if (typeof row?.body !== 'string') return undefined;
    const lines = this.read<{ body: string }>(TRANSCRIPT_ROWS_SQL, [key]).map((line) => line.body);
    return joinConversation({ ...row, body: row.body }, lines);
  }

  /**
   * Retention of transcript lines as one DELETE by date (the date is indexed), after a commit of what changed (all
   * synchronous: nothing changes in between); the conversations in memory that held such lines are left cold, read
   * again from their rows when next asked.
   */
  async deleteTranscriptBefore(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }> {
    this.commit(state, []);
    const result = { lines: 0, conversations: 0 };
    this.transact(
      (function* (): SqlSteps {
        const { rows } = yield { sql: TRANSCRIPT_RETENTION_SQL.count, values: [beforeMs] };
        for (const { key, n } of rows as Array<{ key: string; n: number }>) {
          result.lines += n;
          result.conversations += 1;
          const slot = state.conversations.get(key);
          if (slot && 'json' in slot) state.conversations.replaceQuietly(key, { owner: slot.owner, updatedAt: slot.updatedAt });
        }
        yield { sql: TRANSCRIPT_RETENTION_SQL.delete, values: [beforeMs] };
      })(),
    );
    this.counters.fsyncs++;
    return result;
  }

  protected read<R>(sql: string, values: unknown[] = []): R[] {
    try {
      return this.prepare(sql).all(...(values as SQLInputValue[])) as R[];
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a read failed: ${describeCause(error)}.`, { cause: error });
    }
  }

  private json<T>(sql: string): T {
    const text = this.read<{ j: string }>(sql)[0]?.j ?? '[]';
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new StoreError('corrupt', `${WHERE}: a table read as JSON is not valid JSON (${describeCause(error)}).`);
    }
  }

  private prepare(sql: string): StatementSync {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  private exec(statement: SqlStatement): SqlResult {
    const prepared = this.prepare(statement.sql);
    if (statement.sql.startsWith('SELECT')) return { changes: 0, rows: prepared.all(...statement.values) };
    return { changes: Number(prepared.run(...statement.values).changes), rows: [] };
  }

  protected transact(steps: SqlSteps): void {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a write failed: ${describeCause(error)}.`, { cause: error });
    }
    try {
      for (let step = steps.next(); !step.done; ) step = steps.next(this.exec(step.value));
      this.db.exec('COMMIT');
    } catch (error) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // Already rolled back by SQLite itself (a failed COMMIT ends the transaction).
      }
      if (error instanceof StoreError) throw error;
      throw new StoreError('io', `${WHERE}: a write failed: ${describeCause(error)}.`, { cause: error });
    }
  }
}
