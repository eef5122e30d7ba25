import type { Pool, PoolClient } from 'pg';
import type { HotState } from '../hot-state.js';
import type { Persistence, PersistenceCounters } from '../persistence.js';
import { conversationSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import { parseAuditRow, stateFromRows, takeSqlWrite } from '../sql-state.js';
import type { ShardRow } from '../sql-state.js';
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
 * The same layout as the file store, in tables: the core state one row, each conversation shard one row,
 * the audit log and the archive append-only tables. A write of the core and its changed shards is one
 * transaction (stronger than the file store's ordered writes), fenced by the lease token.
 */
export class PostgresPersistence implements Persistence {
  private readonly counters: PersistenceCounters = { fsyncs: 0, bytes: 0, snapshots: 0 };
  constructor(
    private readonly pool: Pool,
    private readonly fence: Fence,
    private readonly logger: StoreLogger,
    private readonly onRelease: () => Promise<void>,
  ) {}

  async load(now: number): Promise<{ state: HotState; migrated: boolean }> {
    const core = await this.query<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1');
    const shards = await this.query<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    return stateFromRows(core[0]?.body, shards, WHERE, now);
  }

  async writeHot(state: HotState): Promise<number> {
    const write = takeSqlWrite(state);
    try {
      await this.transaction(async (client) => {
        await client.query('INSERT INTO bridge_core (id, body) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body', [
          write.coreText,
        ]);
        for (const row of write.rows) {
          await client.query(
            'INSERT INTO bridge_shards (tbl, idx, body) VALUES ($1, $2, $3) ON CONFLICT (tbl, idx) DO UPDATE SET body = EXCLUDED.body',
            [row.tbl, row.idx, row.body],
          );
        }
      });
    } catch (error) {
      write.undo();
      throw error;
    }
    this.counters.fsyncs++;
    this.counters.bytes += write.bytes;
    return write.bytes;
  }

  /** Every commit already holds the whole changed rows: a snapshot is one more commit of what is dirty. */
  async snapshot(state: HotState): Promise<void> {
    await this.writeHot(state);
    this.counters.snapshots++;
  }

  /** Commits count as syncs: PostgreSQL makes each one durable before it answers. */
  stats(): PersistenceCounters {
    return { ...this.counters };
  }

  readCold(key: string): Promise<string | undefined> {
    // Only the file store makes conversations cold (by their byte range in a snapshot file); rows stay in memory.
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
