import type { Pool, PoolClient } from 'pg';
import type { HotState } from '../hot-state.js';
import { SqlPersistence } from '../sql-persistence.js';
import type { SqlSteps } from '../sql-persistence.js';
import type { ConversationRow, EffectRow, LoadedState, ShardRow } from '../sql-state.js';
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
 * The shared SQL layout (`../sql-persistence.ts`) in PostgreSQL: every transaction fenced by the lease token. Its
 * reads being asynchronous, this store loads the conversations whole at open (the same tables) and never leaves one
 * cold: a read there would be asynchronous, in the middle of an update.
 */
export class PostgresPersistence extends SqlPersistence {
  constructor(
    private readonly pool: Pool,
    private readonly fence: Fence,
    logger: StoreLogger,
    onRelease: () => Promise<void>,
  ) {
    super(WHERE, logger, onRelease, false);
  }

  async load(now: number): Promise<LoadedState> {
    const core = (await this.read<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1'))[0]?.body;
    const shards = await this.read<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    const conversations = await this.read<ConversationRow>(
      'SELECT key, owner, updated_at, archived_at, body, turn, dialog FROM bridge_conversations',
    );
    const lines = new Map<string, string[]>();
    for (const row of await this.read<{ key: string; body: string }>('SELECT key, body FROM bridge_transcript ORDER BY key, seq')) {
      const of = lines.get(row.key);
      if (of) of.push(row.body);
      else lines.set(row.key, [row.body]);
    }
    for (const row of conversations) row.lines = lines.get(row.key) ?? [];
    const seen = await this.read<{ ref: string; at: number }>('SELECT ref, at FROM bridge_seen');
    const outbox = await this.read<EffectRow>('SELECT body, state FROM bridge_outbox');
    const inbox = await this.read<{ body: string }>('SELECT body FROM bridge_inbox');
    const escalations = await this.read<{ body: string }>('SELECT body FROM bridge_escalations');
    return this.loaded({ core, shards, conversations, seen, outbox, inbox, escalations }, now);
  }

  readCold(key: string): Promise<string | undefined> {
    return Promise.reject(new Error(`conversation ${key} cannot be cold in the PostgreSQL store`));
  }

  /**
   * Retention of transcript lines as one DELETE by date (the date is indexed). Every conversation is in memory here:
   * their old lines go there first (a commit meanwhile writes them without), then from the rows.
   */
  async deleteTranscriptBefore(state: HotState, beforeMs: number): Promise<{ lines: number; conversations: number }> {
    const result = await trimHotLinesIn(state, beforeMs);
    await this.transact(
      (function* (): SqlSteps {
        yield { sql: TRANSCRIPT_RETENTION_SQL.delete, values: [beforeMs] };
      })(),
    );
    return result;
  }

  protected async read<R>(sql: string, values: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query(numbered(sql), values)).rows as R[];
    } catch (error) {
      throw new StoreError('io', `${WHERE}: a read failed: ${describeCause(error)}.`, { cause: error });
    }
  }

  protected async transact(steps: SqlSteps): Promise<void> {
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
      for (let step = steps.next(); !step.done; ) {
        const result = await client.query(numbered(step.value.sql), step.value.values);
        step = steps.next({ changes: result.rowCount ?? 0, rows: result.rows });
      }
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
