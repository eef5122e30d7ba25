import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { HotState } from '../hot-state.js';
import type { Persistence, PersistenceCounters } from '../persistence.js';
import { conversationSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import { SqlCommits, commitSteps } from '../sql-commit.js';
import type { SqlResult, SqlStatement } from '../sql-commit.js';
import { parseAuditRow, stateFromRows } from '../sql-state.js';
import type { ConversationRow, EffectRow, ShardRow } from '../sql-state.js';
import { TRANSCRIPT_ROWS_SQL, TRANSCRIPT_RETENTION_SQL, joinConversation } from '../sql-transcript.js';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';

const WHERE = 'the SQLite store';

/**
 * The shared SQL layout (`../sql-state.ts`) in one SQLite file, through one connection the store owns. Each write
 * is one transaction; with `journal_mode=WAL` and `synchronous=FULL` SQLite syncs the WAL before COMMIT returns,
 * so a committed write survives a process crash and a power cut. The API is synchronous: a write holds the event
 * loop for its fsync, which the store's group commit shares among every caller waiting.
 *
 * Conversations are read on demand: the open loads only their owners and dates (and the seen ids, effects, inbox,
 * escalations and core); the ones committed most recently stay in memory, older ones are left cold again
 * (`SqlCommits`).
 */
export class SqlitePersistence implements Persistence {
  private readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  private commits = new SqlCommits(true);
  /** Statements compiled once: a commit runs the same few again and again. */
  private readonly prepared = new Map<string, StatementSync>();
  constructor(
    private readonly db: DatabaseSync,
    private readonly logger: StoreLogger,
    private readonly onRelease: () => Promise<void>,
  ) {}

  load(now: number): { state: HotState; migrated: boolean } {
    const core = this.all<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1')[0]?.body;
    const shards = this.all<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    // As one JSON text each: node:sqlite makes a row object slowly, JSON.parse makes 50,000 arrays quickly (2-3x).
    const conversations = this.json<Array<[string, string | null, number | null, number | null]>>(
      'SELECT json_group_array(json_array(key, owner, updated_at, archived_at)) AS j FROM bridge_conversations',
    ).map(([key, owner, updated_at, archived_at]): ConversationRow => ({ key, owner, updated_at, archived_at }));
    const seen = this.json<Array<[string, number]>>('SELECT json_group_array(json_array(ref, at)) AS j FROM bridge_seen').map(
      ([ref, at]) => ({ ref, at }),
    );
    const outbox = this.all<EffectRow>('SELECT body, state FROM bridge_outbox');
    const inbox = this.all<{ body: string }>('SELECT body FROM bridge_inbox');
    const escalations = this.all<{ body: string }>('SELECT body FROM bridge_escalations');
    const loaded = stateFromRows({ core, shards, conversations, seen, outbox, inbox, escalations }, WHERE, now);
    this.commits = new SqlCommits(true, { ...loaded, core, shards: shards.length > 0 });
    return loaded;
  }

  async writeHot(state: HotState, audit: readonly AuditEntry[] = []): Promise<number> {
    return this.commit(state, audit);
  }

  /** Commits what changed, synchronously: nothing else runs between the cut of the changes and the COMMIT. */
  private commit(state: HotState, audit: readonly AuditEntry[]): number {
    const write = this.commits.take(state, audit);
    if (write.statements.length + write.transcripts.length === 0) return 0;
    try {
      this.transaction(() => {
        const steps = commitSteps(write);
        for (let step = steps.next(); !step.done; ) step = steps.next(this.exec(step.value));
      });
    } catch (error) {
      write.undo();
      throw error;
    }
    write.done();
    this.counters.fsyncs++;
    this.counters.bytes += write.bytes;
    return write.bytes;
  }

  private exec(statement: SqlStatement): SqlResult {
    const prepared = this.prepare(statement.sql);
    if (statement.sql.startsWith('SELECT')) return { changes: 0, rows: prepared.all(...statement.values) };
    return { changes: Number(prepared.run(...statement.values).changes), rows: [] };
  }

  /**
   * Retention of transcript lines as one DELETE by date (the date is indexed), after a commit of what changed; the
   * conversations in memory that held such lines are left cold, read again from their rows when next asked.
   */
  async deleteTranscriptBefore(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }> {
    this.commit(state, []);
    const result = { lines: 0, conversations: 0 };
    this.transaction(() => {
      for (const { key, n } of this.prepare(TRANSCRIPT_RETENTION_SQL.count).all(beforeMs) as Array<{ key: string; n: number }>) {
        result.lines += n;
        result.conversations += 1;
        const slot = state.conversations.get(key);
        if (slot && 'json' in slot) state.conversations.replaceQuietly(key, { owner: slot.owner, updatedAt: slot.updatedAt });
      }
      this.prepare(TRANSCRIPT_RETENTION_SQL.delete).run(beforeMs);
    });
    this.counters.fsyncs++;
    return result;
  }

  /** Every commit already holds the whole changed rows: a snapshot is one more commit of what is dirty. */
  async snapshot(state: HotState): Promise<void> {
    await this.writeHot(state);
    this.counters.snapshots++;
  }

  stats(): PersistenceCounters {
    return { ...this.counters };
  }

  async readCold(key: string): Promise<string | undefined> {
    const sql = 'SELECT body, turn, dialog FROM bridge_conversations WHERE key = ? AND archived_at IS NULL';
    const row = this.all<{ body: string | null; turn: string | null; dialog: string | null }>(sql, [key])[0];
    if (typeof row?.body !== 'string') return undefined;
    const lines = this.all<{ body: string }>(TRANSCRIPT_ROWS_SQL, [key]).map((line) => line.body);
    return joinConversation({ ...row, body: row.body }, lines);
  }

  async appendAudit(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    this.transaction(() => {
      const insert = this.db.prepare('INSERT INTO bridge_audit (body) VALUES (?)');
      for (const entry of entries) insert.run(JSON.stringify(entry));
    });
    this.counters.fsyncs++;
  }

  async readAudit(visit: (entry: AuditEntry) => void): Promise<void> {
    let bad = 0;
    for (const row of this.all<{ body: string }>('SELECT body FROM bridge_audit ORDER BY seq')) {
      const entry = parseAuditRow(row.body);
      if (entry) visit(entry);
      else bad += 1;
    }
    if (bad > 0) this.logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  }

  async rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    const rows = this.all<{ seq: number; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq');
    const drop = rows.filter((row) => {
      const entry = parseAuditRow(row.body);
      return entry === undefined || !keep(entry);
    });
    if (drop.length > 0)
      this.deleteBySeq(
        'bridge_audit',
        drop.map((row) => row.seq),
      );
    return drop.length;
  }

  async appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    if (records.length === 0) return;
    this.transaction(() => {
      const insert = this.db.prepare('INSERT INTO bridge_archive (key, body) VALUES (?, ?)');
      for (const record of records) insert.run(record.key, record.json);
    });
    this.counters.fsyncs++;
  }

  async readArchive(key: string): Promise<ConversationRecord | undefined> {
    const rows = this.all<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
    if (rows[0] === undefined) return undefined;
    const result = conversationSchema.safeParse(JSON.parse(rows[0].body));
    if (!result.success)
      throw new StoreError('corrupt', `An archived conversation in ${WHERE} (bridge_archive) does not match the schema.`);
    return result.data;
  }

  async removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number> {
    let count = 0;
    if (options.dryRun) {
      for (const key of keys) count += this.all<{ n: number }>('SELECT count(*) AS n FROM bridge_archive WHERE key = ?', [key])[0]?.n ?? 0;
      return count;
    }
    if (keys.length === 0) return 0;
    this.transaction(() => {
      const remove = this.db.prepare('DELETE FROM bridge_archive WHERE key = ?');
      for (const key of keys) count += Number(remove.run(key).changes);
    });
    return count;
  }

  async compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    const rows = this.all<{ seq: number; key: string }>('SELECT seq, key FROM bridge_archive ORDER BY seq');
    const latest = new Map(rows.map((row) => [row.key, row.seq]));
    const drop = rows.filter((row) => latest.get(row.key) !== row.seq || !isArchived(row.key)).map((row) => row.seq);
    if (drop.length > 0) this.deleteBySeq('bridge_archive', drop);
    return drop.length;
  }

  release(): Promise<void> {
    return this.onRelease();
  }

  private deleteBySeq(table: 'bridge_audit' | 'bridge_archive', seqs: number[]): void {
    this.transaction(() => {
      const remove = this.db.prepare(`DELETE FROM ${table} WHERE seq = ?`);
      for (const seq of seqs) remove.run(seq);
    });
  }

  private all<R>(sql: string, values: SQLInputValue[] = []): R[] {
    try {
      return this.prepare(sql).all(...values) as R[];
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a read failed: ${describeCause(error)}.`, { cause: error });
    }
  }

  private json<T>(sql: string): T {
    const text = this.all<{ j: string }>(sql)[0]?.j ?? '[]';
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

  private transaction(work: () => void): void {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a write failed: ${describeCause(error)}.`, { cause: error });
    }
    try {
      work();
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
