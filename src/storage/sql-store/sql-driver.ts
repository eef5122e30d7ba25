import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

export type SqlValue = string | number | null;

/**
 * What the SQL store needs of a database connection: reads, writes and transaction bounds, `?` for values. The
 * SQLite driver answers synchronously (wrapped), the PostgreSQL one over the network; the store is written once.
 */
export interface SqlDriver {
  /** Whether a COMMIT syncs a file (SQLite on disk): what `stats().fsyncs` counts. */
  readonly syncs: boolean;
  all<R extends object>(sql: string, values?: readonly SqlValue[]): R[] | Promise<R[]>;
  /** Runs a statement; resolves with the rows it changed. */
  run(sql: string, values?: readonly SqlValue[]): number | Promise<number>;
  begin(): void | Promise<void>;
  commit(): void | Promise<void>;
  rollback(): void | Promise<void>;
  close(): void | Promise<void>;
  /** Throws when the connection may no longer be used (PostgreSQL: the lease is known lost), before any query. */
  assertUsable?(): void;
}

/** node:sqlite on one connection, each statement compiled once. */
export function sqliteDriver(db: DatabaseSync, onClose: () => Promise<void> = async () => {}, syncs = true): SqlDriver {
  const prepared = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  return {
    syncs,
    all: <R extends object>(sql: string, values: readonly SqlValue[] = []) => prepare(sql).all(...(values as SQLInputValue[])) as R[],
    run: (sql, values = []) => Number(prepare(sql).run(...(values as SQLInputValue[])).changes),
    begin: () => db.exec('BEGIN'),
    commit: () => db.exec('COMMIT'),
    rollback: () => {
      if (db.isTransaction) db.exec('ROLLBACK');
    },
    close: async () => {
      db.close();
      await onClose();
    },
  };
}
