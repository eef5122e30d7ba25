import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { HotState } from '../hot-state.js';
import type { Persistence, PersistenceCounters } from '../persistence.js';
import { conversationSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import { RecentConversations, parseAuditRow, stateFromRows, statementBytes, takeSqlWrite } from '../sql-state.js';
import { TRANSCRIPT_ROWS_SQL, joinConversation, transcriptStatements } from '../sql-transcript.js';
import type { ConversationRow, ShardRow } from '../sql-state.js';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';

const WHERE = 'the SQLite store';

/**
 * The shared SQL layout (`../sql-state.ts`) in one SQLite file, through one connection the store owns. Each write
 * is one transaction; with `journal_mode=WAL` and `synchronous=FULL` SQLite syncs the WAL before COMMIT returns,
 * so a committed write survives a process crash and a power cut. The API is synchronous: a write holds the event
 * loop for its fsync, which the store's group commit shares among every caller waiting.
 *
 * Conversations are read on demand: the open loads only their owners and dates (and the seen ids, effects and
 * core); the ones committed most recently stay in memory, older ones are left cold again (`RecentConversations`).
 */
export class SqlitePersistence implements Persistence {
  private readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  /** The core row as last committed: not written again while it is the same. */
  private lastCore: string | undefined;
  /** Version-1 shard rows were read at open: the first commit deletes them. */
  private dropShards = false;
  private readonly recent = new RecentConversations();
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
    const outbox = this.all<{ body: string }>('SELECT body FROM bridge_outbox');
    this.dropShards = shards.length > 0;
    this.lastCore = core;
    return stateFromRows({ core, shards, conversations, seen, outbox }, WHERE, now);
  }

  async writeHot(state: HotState): Promise<number> {
    const write = takeSqlWrite(state, this.lastCore, this.dropShards);
    if (write.statements.length === 0) return 0;
    try {
      this.transaction(() => {
        for (const statement of write.statements) this.prepare(statement.sql).run(...statement.values);
        for (const { key, lines } of write.transcripts) {
          const committed = this.prepare(TRANSCRIPT_ROWS_SQL).all(key) as Array<{ seq: number; body: string }>;
          const statements = transcriptStatements(key, committed, lines);
          for (const statement of statements) this.prepare(statement.sql).run(...statement.values);
          write.bytes += statementBytes(statements);
        }
      });
    } catch (error) {
      write.undo();
      throw error;
    }
    this.lastCore = write.coreText;
    this.dropShards = false;
    this.recent.committed(state, write.written);
    this.counters.fsyncs++;
    this.counters.bytes += write.bytes;
    return write.bytes;
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
    const body = this.all<{ body: string | null }>('SELECT body FROM bridge_conversations WHERE key = ? AND archived_at IS NULL', [key])[0]
      ?.body;
    if (typeof body !== 'string') return undefined;
    return joinConversation(
      body,
      this.all<{ body: string }>(TRANSCRIPT_ROWS_SQL, [key]).map((row) => row.body),
    );
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
