import type { PoolClient } from 'pg';
import type { SqlDriver, SqlValue } from '../sql-store/sql-driver.js';
import { StoreError, describeCause } from '../store-error.js';
import type { Lease } from './lease.js';

/**
 * The SQL store's driver on one PostgreSQL connection: the store runs one operation at a time on it, so its reads
 * see its own open transaction. Every transaction checks the lease first: a write after a takeover fails with `locked`.
 */
export function pgDriver(client: PoolClient, lease: Lease, onClose: () => Promise<void>): SqlDriver {
  const query = async <R extends object>(sql: string, values: readonly SqlValue[]) => {
    try {
      return await client.query<R>(numbered(sql), values as SqlValue[]);
    } catch (error) {
      throw new StoreError('io', `the PostgreSQL store: a statement failed: ${describeCause(error)}.`, { cause: error });
    }
  };
  return {
    syncs: false,
    all: async <R extends object>(sql: string, values: readonly SqlValue[] = []) => (await query<R>(sql, values)).rows,
    run: async (sql, values = []) => (await query(sql, values)).rowCount ?? 0,
    begin: async () => {
      lease.assertHeld();
      await query('BEGIN', []);
      await lease.check(client).catch(async (error: unknown) => {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      });
    },
    commit: async () => void (await query('COMMIT', [])),
    rollback: async () => void (await client.query('ROLLBACK').catch(() => {})),
    assertUsable: () => lease.assertHeld(),
    close: async () => {
      client.release();
      await onClose();
    },
  };
}

/** `?` placeholders numbered as PostgreSQL wants them (`$1`, `$2`…); the store's statements carry no other `?`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
