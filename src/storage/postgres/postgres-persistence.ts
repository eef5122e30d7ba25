import type { Pool, PoolClient } from 'pg';
import { decodeCoreFile } from '../decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, coreFileText, emptyHotState, shardedTables } from '../hot-state.js';
import { keySeenByTopic } from '../key-seen-by-topic.js';
import { mentionRef } from '../records.js';
import { hasSeenIn } from '../state/inbox.js';
import type { HotState } from '../hot-state.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from '../load-shards.js';
import type { LineDecoder } from '../load-shards.js';
import type { Persistence, PersistenceCounters } from '../persistence.js';
import { auditEntrySchema, conversationSchema } from '../records.js';
import type { AuditEntry, ConversationRecord } from '../records.js';
import type { ShardedMap } from '../sharded-map.js';
import { indexPendingEffects } from '../state/outbox.js';
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
    const decoded = core[0] === undefined ? undefined : decodeCoreFile(core[0].body, `${WHERE} (bridge_core)`, now);
    const state = decoded?.state ?? emptyHotState(now);
    const shards = await this.query<{ tbl: string; idx: number; body: string }>(
      'SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx',
    );
    const decoders: Record<string, LineDecoder<unknown>> = {
      conversations: decodeConversationLine as LineDecoder<unknown>,
      seen: decodeSeenLine as LineDecoder<unknown>,
      outbox: decodeEffectLine as LineDecoder<unknown>,
    };
    const tables = new Map(shardedTables(state));
    for (const row of shards) {
      const table = tables.get(row.tbl);
      const decode = decoders[row.tbl];
      if (!table || !decode) continue;
      loadShardText(row.body, table, decode, `${WHERE} (bridge_shards ${row.tbl} ${row.idx})`);
    }
    for (const [, table] of tables) table.takeDirty();
    const migrated = decoded !== undefined && decoded.fromVersion < CURRENT_SCHEMA_VERSION;
    // Re-keyed after takeDirty: the changed shards are written with the first commit, in one transaction with the core.
    if (decoded && decoded.fromVersion < 2) keySeenByTopic(state);
    for (const mention of state.inbox)
      if (!hasSeenIn(state, mention.topicId, mention.id)) state.seen.set(mentionRef(mention.topicId, mention.id), now);
    indexPendingEffects(state);
    return { state, migrated };
  }

  async writeHot(state: HotState): Promise<number> {
    const taken: Array<[ShardedMap<unknown>, number[]]> = [];
    const rows: Array<[string, number, string]> = [];
    for (const [name, table] of shardedTables(state)) {
      const dirty = table.takeDirty();
      taken.push([table, dirty]);
      for (const index of dirty) rows.push([name, index, table.shardText(index)]);
    }
    // The journal's change sets are the file store's; here each commit writes whole rows, so they are dropped.
    for (const [, table] of shardedTables(state)) table.takeChanged();
    state.cursors.takeChanged();
    state.escalations.takeChanged();
    state.inboxChanges.clear();
    const coreText = coreFileText(state, 0);
    let bytes = Buffer.byteLength(coreText);
    try {
      await this.transaction(async (client) => {
        await client.query('INSERT INTO bridge_core (id, body) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body', [
          coreText,
        ]);
        for (const [name, index, text] of rows) {
          bytes += Buffer.byteLength(text);
          await client.query(
            'INSERT INTO bridge_shards (tbl, idx, body) VALUES ($1, $2, $3) ON CONFLICT (tbl, idx) DO UPDATE SET body = EXCLUDED.body',
            [name, index, text],
          );
        }
      });
    } catch (error) {
      for (const [table, dirty] of taken) table.markDirty(dirty);
      throw error;
    }
    this.counters.fsyncs++;
    this.counters.bytes += bytes;
    return bytes;
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
      const entry = parseAudit(row.body);
      if (entry) visit(entry);
      else bad += 1;
    }
    if (bad > 0) this.logger.warn({ table: 'bridge_audit' }, `skipped ${bad} unreadable audit row(s)`);
  }

  async rewriteAudit(keep: (entry: AuditEntry) => boolean): Promise<number> {
    const rows = await this.query<{ seq: string; body: string }>('SELECT seq, body FROM bridge_audit ORDER BY seq');
    const drop = rows.filter((row) => {
      const entry = parseAudit(row.body);
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

function loadShardText<V>(text: string, map: ShardedMap<V>, decode: LineDecoder<V>, where: string): void {
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (error) {
      throw new StoreError('corrupt', `A row of ${where} is not valid JSON (${describeCause(error)}).`);
    }
    const result = decode(data, line);
    if ('error' in result) throw new StoreError('schema', `A row of ${where} does not match the schema.`);
    map.set(result.entry[0], result.entry[1]);
  }
}

function parseAudit(text: string): AuditEntry | undefined {
  try {
    const result = auditEntrySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
