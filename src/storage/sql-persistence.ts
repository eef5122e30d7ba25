import type { HotState } from './hot-state.js';
import type { Persistence, PersistenceCounters } from './persistence.js';
import { conversationSchema } from './records.js';
import type { AuditEntry, ConversationRecord } from './records.js';
import { SqlCommits, commitSteps } from './sql-commit.js';
import type { SqlResult, SqlStatement } from './sql-commit.js';
import { parseAuditRow, stateFromRows } from './sql-state.js';
import type { LoadedState, StateRows } from './sql-state.js';
import { StoreError } from './store-error.js';
import type { StoreLogger } from './store-options.js';

/** The statements a transaction runs, in order: a store drives them, passing each one's result back. */
export type SqlSteps = Iterator<SqlStatement, void, SqlResult>;

/**
 * What the SQLite and PostgreSQL stores do alike over the shared layout (`sql-state.ts`, `sql-commit.ts`): the commit
 * of the changes, the audit log and the archive. A store gives two primitives, a read and a transaction; SQLite runs
 * them synchronously (the commit's cut and its COMMIT with nothing in between), PostgreSQL awaits them.
 */
export abstract class SqlPersistence implements Persistence {
  protected readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  protected commits: SqlCommits;

  constructor(
    protected readonly where: string,
    protected readonly logger: StoreLogger,
    private readonly onRelease: () => Promise<void>,
    private readonly leaveCold: boolean,
  ) {
    this.commits = new SqlCommits(leaveCold);
  }

  /** The rows a query returns (`?` placeholders). */
  protected abstract read<R>(sql: string, values?: unknown[]): R[] | Promise<R[]>;
  /** Runs the statements `steps` gives in one transaction, committed; a throw rolls it back. */
  protected abstract transact(steps: SqlSteps): void | Promise<void>;

  abstract readCold(key: string): Promise<string | undefined>;

  /** The state from its rows; the commits then write what differs from them. */
  protected loaded(rows: StateRows, now: number): LoadedState {
    const loaded = stateFromRows(rows, this.where, now);
    this.commits = new SqlCommits(this.leaveCold, { ...loaded, core: rows.core, shards: rows.shards.length > 0 });
    return loaded;
  }

  async writeHot(state: HotState, audit: readonly AuditEntry[] = []): Promise<number> {
    return this.commit(state, audit);
  }

  /** A commit of what changed: synchronous when the store's transactions are (SQLite). */
  protected commit(state: HotState, audit: readonly AuditEntry[]): number | Promise<number> {
    const write = this.commits.take(state, audit);
    if (write.statements.length + write.transcripts.length === 0) return 0;
    const done = () => {
      write.done();
      this.counters.fsyncs++;
      this.counters.bytes += write.bytes;
      return write.bytes;
    };
    const failed = (error: unknown): never => {
      write.undo();
      throw error;
    };
    let ran: void | Promise<void>;
    try {
      ran = this.transact(commitSteps(write));
    } catch (error) {
      return failed(error);
    }
    return ran instanceof Promise ? ran.then(done, failed) : done();
  }

  /** Every commit already holds the whole changed rows: a snapshot is one more commit of what is dirty. */
  async snapshot(state: HotState): Promise<void> {
    await this.writeHot(state);
    this.counters.snapshots++;
  }

  /** Commits count as syncs: SQLite syncs the WAL and PostgreSQL its log before a COMMIT returns. */
  stats(): PersistenceCounters {
    return { ...this.counters };
  }

  async appendAudit(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.transact(
      run(entries.map((entry) => ({ sql: 'INSERT INTO bridge_audit (body) VALUES (?)', values: [JSON.stringify(entry)] }))),
    );
    this.counters.fsyncs++;
  }

  async readAudit(visit: (entry: AuditEntry) => void): Promise<void> {
    let bad = 0;
    for (const row of await this.read<{ body: string }>('SELECT body FROM bridge_audit ORDER BY seq')) {
      const entry = parseAuditRow(row.body);
      if (entry) visit(entry);
      else bad += 1;
    }
    if (bad > 0) this.logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  }

  async rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    const rows = await this.read<{ seq: number | string; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq');
    const drop = rows.filter((row) => {
      const entry = parseAuditRow(row.body);
      return entry === undefined || !keep(entry);
    });
    await this.deleteBySeq(
      'bridge_audit',
      drop.map((row) => row.seq),
    );
    return drop.length;
  }

  async appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    if (records.length === 0) return;
    const sql = 'INSERT INTO bridge_archive (key, body) VALUES (?, ?)';
    await this.transact(run(records.map((record) => ({ sql, values: [record.key, record.json] }))));
    this.counters.fsyncs++;
  }

  async readArchive(key: string): Promise<ConversationRecord | undefined> {
    const rows = await this.read<{ body: string }>('SELECT body FROM bridge_archive WHERE key = ? ORDER BY seq DESC LIMIT 1', [key]);
    if (rows[0] === undefined) return undefined;
    const result = conversationSchema.safeParse(JSON.parse(rows[0].body));
    if (!result.success)
      throw new StoreError('corrupt', `An archived conversation in ${this.where} (bridge_archive) does not match the schema.`);
    return result.data;
  }

  async removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number> {
    let count = 0;
    if (options.dryRun) {
      for (const key of keys)
        count += Number((await this.read<{ n: number }>('SELECT count(*) AS n FROM bridge_archive WHERE key = ?', [key]))[0]?.n ?? 0);
      return count;
    }
    const remove = keys.map((key) => ({ sql: 'DELETE FROM bridge_archive WHERE key = ?', values: [key] }));
    if (remove.length > 0) await this.transact(run(remove, (changes) => (count += changes)));
    return count;
  }

  async compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    const rows = await this.read<{ seq: number | string; key: string }>('SELECT seq, key FROM bridge_archive ORDER BY seq');
    const latest = new Map(rows.map((row) => [row.key, row.seq]));
    const drop = rows.filter((row) => latest.get(row.key) !== row.seq || !isArchived(row.key)).map((row) => row.seq);
    await this.deleteBySeq('bridge_archive', drop);
    return drop.length;
  }

  release(): Promise<void> {
    return this.onRelease();
  }

  private async deleteBySeq(table: 'bridge_audit' | 'bridge_archive', seqs: Array<number | string>): Promise<void> {
    if (seqs.length > 0) await this.transact(run(seqs.map((seq) => ({ sql: `DELETE FROM ${table} WHERE seq = ?`, values: [seq] }))));
  }
}

/** The steps of a list of statements; `changed` hears how many rows each one changed. */
function* run(statements: SqlStatement[], changed?: (changes: number) => void): SqlSteps {
  for (const statement of statements) {
    // Not `changed?.((yield statement)…)`: without `changed` that would skip the yield itself.
    const { changes } = yield statement;
    changed?.(changes);
  }
}
