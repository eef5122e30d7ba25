import type { Pool, PoolClient } from 'pg';
import type { HotState } from '../hot-state.js';
import type { Persistence, PersistenceCounters } from '../persistence.js';
import { conversationSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import { SqlCommits, commitSteps } from '../sql-commit.js';
import type { SqlStatement } from '../sql-commit.js';
import { parseAuditRow, stateFromRows } from '../sql-state.js';
import type { ConversationRow, EffectRow, ShardRow } from '../sql-state.js';
import { TRANSCRIPT_RETENTION_SQL } from '../sql-transcript.js';
import { trimHotLinesIn } from '../state/conversations.js';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';

/** Refuses a write when another instance took the lease since: the check runs in the write's own transaction. */
export interface Fence {
  /** Throws `locked` at once when the lease is known lost: no connection is taken for a write that will be refused. */
  assertHeld(): void;
  /** Runs inside each write transaction: the database's own word. */
  check(client: PoolClient): Promise<void>;
}

const WHERE = 'the PostgreSQL store';

/**
 * The shared SQL layout (`../sql-state.ts`, `../sql-commit.ts`): the core state one row, a row per inbox mention,
 * escalation, conversation, seen id and effect, the audit log and the archive append-only tables. A commit of the changed rows is one transaction, fenced by the
 * lease token. Its reads being asynchronous, this store loads the conversations whole at open (the same tables).
 */
export class PostgresPersistence implements Persistence {
  private readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  private commits = new SqlCommits(false);
  constructor(
    private readonly pool: Pool,
    private readonly fence: Fence,
    private readonly logger: StoreLogger,
    private readonly onRelease: () => Promise<void>,
  ) {}

  async load(now: number): Promise<{ state: HotState; migrated: boolean }> {
    const core = (await this.query<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1'))[0]?.body;
    const shards = await this.query<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    const conversations = await this.query<ConversationRow>(
      'SELECT key, owner, updated_at, archived_at, body, turn, dialog FROM bridge_conversations',
    );
    const lines = new Map<string, string[]>();
    for (const row of await this.query<{ key: string; body: string }>('SELECT key, body FROM bridge_transcript ORDER BY key, seq')) {
      const of = lines.get(row.key);
      if (of) of.push(row.body);
      else lines.set(row.key, [row.body]);
    }
    for (const row of conversations) row.lines = lines.get(row.key) ?? [];
    const seen = await this.query<{ ref: string; at: number }>('SELECT ref, at FROM bridge_seen');
    const outbox = await this.query<EffectRow>('SELECT body, state FROM bridge_outbox');
    const inbox = await this.query<{ body: string }>('SELECT body FROM bridge_inbox');
    const escalations = await this.query<{ body: string }>('SELECT body FROM bridge_escalations');
    const loaded = stateFromRows({ core, shards, conversations, seen, outbox, inbox, escalations }, WHERE, now);
    this.commits = new SqlCommits(false, { ...loaded, core, shards: shards.length > 0 });
    return loaded;
  }

  async writeHot(state: HotState, audit: readonly AuditEntry[] = []): Promise<number> {
    const write = this.commits.take(state, audit);
    if (write.statements.length + write.transcripts.length === 0) return 0;
    try {
      await this.transaction(async (client) => {
        const steps = commitSteps(write);
        const exec = async ({ sql, values }: SqlStatement) => {
          const result = await client.query(numbered(sql), values);
          return { changes: result.rowCount ?? 0, rows: result.rows };
        };
        for (let step = steps.next(); !step.done; ) step = steps.next(await exec(step.value));
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

  /** Every commit already holds the whole changed rows: a snapshot is one more commit of what is dirty. */
  async snapshot(state: HotState): Promise<void> {
    await this.writeHot(state);
    this.counters.snapshots++;
  }

  /**
   * Retention of transcript lines as one DELETE by date (the date is indexed). Every conversation is in memory here:
   * their old lines go there first (a commit meanwhile writes them without), then from the rows.
   */
  async deleteTranscriptBefore(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }> {
    const result = await trimHotLinesIn(state, beforeMs);
    await this.transaction(async (client) => {
      await client.query(numbered(TRANSCRIPT_RETENTION_SQL.delete), [beforeMs]);
    });
    return result;
  }

  /** Commits count as syncs: PostgreSQL makes each one durable before it answers. */
  stats(): PersistenceCounters {
    return { ...this.counters };
  }

  readCold(key: string): Promise<string | undefined> {
    // Loaded whole at open and never left cold: a read there would be asynchronous, in the middle of an update.
    return Promise.reject(new Error(`conversation ${key} cannot be cold in the PostgreSQL store`));
  }

  async appendAudit(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.transaction(async (client) => {
      await client.query('INSERT INTO bridge_audit (body) SELECT unnest($1::text[])', [entries.map((entry) => JSON.stringify(entry))]);
    });
  }

  async readAudit(visit: (entry: AuditEntry) => void): Promise<void> {
    const rows = await this.query<{ seq: string; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq');
    let bad = 0;
    for (const row of rows) {
      const entry = parseAuditRow(row.body);
      if (entry) visit(entry);
      else bad += 1;
    }
    if (bad > 0) this.logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  }

  async rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    const rows = await this.query<{ seq: string; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq');
    const drop = rows.filter((row) => {
      const entry = parseAuditRow(row.body);
      return entry === undefined || !keep(entry);
    });
    if (drop.length === 0) return 0;
    await this.transaction(async (client) => {
      await client.query('DELETE FROM bridge_audit WHERE seq = ANY($1::bigint[])', [drop.map((row) => row.seq)]);
    });
    return drop.length;
  }

  async appendArchive(records: Array<{ key: string; json: string }>): Promise<void> {
    if (records.length === 0) return;
    await this.transaction(async (client) => {
      await client.query('INSERT INTO bridge_archive (key, body) SELECT * FROM unnest($1::text[], $2::text[])', [
        records.map((record) => record.key),
        records.map((record) => record.json),
      ]);
    });
  }

  async readArchive(key: string): Promise<ConversationRecord | undefined> {
    const rows = await this.query<{ body: string }>('SELECT body FROM bridge_archive WHERE key = $1 ORDER BY seq DESC LIMIT 1', [key]);
    if (rows[0] === undefined) return undefined;
    const result = conversationSchema.safeParse(JSON.parse(rows[0].body));
    if (!result.success)
      throw new StoreError('corrupt', `An archived conversation in ${WHERE} (bridge_archive) does not match the schema.`);
    return result.data;
  }

  async removeArchive(keys: readonly string[], options: { dryRun: boolean }): Promise<number> {
    if (keys.length === 0) return 0;
    if (options.dryRun) {
      const rows = await this.query<{ n: string }>('SELECT count(*) AS n FROM bridge_archive WHERE key = ANY($1::text[])', [[...keys]]);
      return Number(rows[0]?.n ?? 0);
    }
    let count = 0;
    await this.transaction(async (client) => {
      count = (await client.query('DELETE FROM bridge_archive WHERE key = ANY($1::text[])', [[...keys]])).rowCount ?? 0;
    });
    return count;
  }

  async compactArchive(isArchived: (key: string) => boolean): Promise<number> {
    const rows = await this.query<{ seq: string; key: string }>('SELECT seq, key FROM bridge_archive ORDER BY seq');
    const latest = new Map(rows.map((row) => [row.key, row.seq]));
    const drop = rows.filter((row) => latest.get(row.key) !== row.seq || !isArchived(row.key)).map((row) => row.seq);
    if (drop.length === 0) return 0;
    await this.transaction(async (client) => {
      await client.query('DELETE FROM bridge_archive WHERE seq = ANY($1::bigint[])', [drop]);
    });
    return drop.length;
  }

  release(): Promise<void> {
    return this.onRelease();
  }

  private async query<R extends object>(sql: string, values: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, values)).rows;
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a read failed: ${describeCause(error)}.`, { cause: error });
    }
  }

  private async transaction(work: (client: PoolClient) => Promise<void>): Promise<void> {
    let client: PoolClient;
    this.fence.assertHeld();
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new StoreError('io', `${WHERE}: cannot connect: ${describeCause(error)}.`, { cause: error });
    }
    try {
      await client.query('BEGIN');
      await this.fence.check(client);
      await work(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      if (error instanceof StoreError) throw error;
      throw new StoreError('io', `${WHERE}: a write failed: ${describeCause(error)}.`, { cause: error });
    } finally {
      client.release();
    }
  }
}

/** `?` placeholders numbered as PostgreSQL wants them (`$1`, `$2`…); the shared statements carry no other `?`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
