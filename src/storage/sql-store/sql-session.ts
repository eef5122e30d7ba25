import { performance } from 'node:perf_hooks';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';
import type { SqlDriver, SqlValue } from './sql-driver.js';

/** The open transaction: settled by its COMMIT. */
type Txn = PromiseWithResolvers<void>;

/**
 * The store's one connection: operations run one at a time (a promise queue), so a read and the write that depends
 * on it never interleave with another operation. The first write opens a transaction whose COMMIT runs `intervalMs`
 * later, shared by everything written meanwhile (group commit); a task that fails undoes only its own writes
 * (`undoTask`), a failed COMMIT the whole transaction (`abort`): `src/storage/README.md`, "What is durable".
 */
export class SqlSession {
  private queue: Promise<unknown> = Promise.resolve();
  private txn: Txn | undefined;
  /** Whether the running task wrote: its writes follow `SAVEPOINT task`, so its failure undoes only them. */
  private savepoint = false;
  /**
   * Why a transaction was rolled back since the last flush: writes made with no durable wait (a decision applied,
   * its flush still to come) went with it, so the next flush must fail rather than let their effects run.
   */
  private lostSinceFlush: StoreError | undefined;
  /** Runs before the next write (a new database's meta row goes with its first write, and again after it is undone). */
  beforeFirstWrite: (() => Promise<unknown>) | undefined;
  /** Runs after a rollback, on the connection: what the store keeps beside the rows is read again from them. */
  afterRollback: (() => Promise<void>) | undefined;
  readonly counters = { writes: 0, bytes: 0, lastWriteMs: 0 };
  /**
   * The rows of the conversations written or read lately, as the open transaction has them (a conversation in play
   * is read several times a message): kept up to date by the conversation's writes, dropped by any other change
   * of its rows, cleared by a rollback.
   */
  readonly recent = new RecentRows();

  constructor(
    readonly driver: SqlDriver,
    private readonly intervalMs: number,
    private readonly logger: StoreLogger,
  ) {}

  /**
   * Runs `task` alone on the connection. With `durable`, resolves only once what the task wrote (or what was
   * written before it and not yet committed) is committed.
   */
  run<T>(task: () => Promise<T> | T, durable = false): Promise<T> {
    let txn: Txn | undefined;
    const result = this.queue.then(async () => {
      this.savepoint = false;
      try {
        const value = await task();
        if (this.savepoint) await this.driver.run('RELEASE SAVEPOINT task');
        return value;
      } catch (error) {
        if (this.savepoint) await this.undoTask(error);
        throw error;
      } finally {
        this.savepoint = false;
        txn = this.txn;
      }
    });
    this.queue = result.catch(() => {});
    if (!durable) return result;
    return result.then(async (value) => {
      await txn?.promise;
      return value;
    });
  }

  all<R extends object>(sql: string, values: readonly SqlValue[] = []): R[] | Promise<R[]> {
    return this.driver.all<R>(sql, values);
  }

  async get<R extends object>(sql: string, values: readonly SqlValue[] = []): Promise<R | undefined> {
    return (await this.driver.all<R>(sql, values))[0];
  }

  /** The JSON `body` of each row a query gives. */
  async bodies<T>(sql: string, values: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.driver.all<{ body: string }>(sql, values)).map((row) => JSON.parse(row.body) as T);
  }

  /** The number a query gives as `n` (0 for none). */
  async count(sql: string, values: readonly SqlValue[] = []): Promise<number> {
    return Number((await this.get<{ n: number | string | null }>(sql, values))?.n ?? 0);
  }

  /** Inside a task: writes in the open transaction, opening one (and queuing its COMMIT) first. */
  async write(sql: string, values: readonly SqlValue[] = []): Promise<number> {
    if (!this.txn) {
      await this.driver.begin();
      this.txn = Promise.withResolvers<void>();
      // A transaction nobody waits for (only non-durable writes) must not become an unhandled rejection.
      this.txn.promise.catch(() => {});
      const commit = (): void => void this.run(() => this.commit()).catch(() => {});
      if (this.intervalMs > 0) setTimeout(commit, this.intervalMs);
      else setImmediate(commit);
    }
    if (!this.savepoint) {
      await this.driver.run('SAVEPOINT task');
      this.savepoint = true;
    }
    const first = this.beforeFirstWrite;
    this.beforeFirstWrite = undefined;
    await first?.();
    for (const value of values) this.counters.bytes += typeof value === 'string' ? Buffer.byteLength(value) : 8;
    return this.driver.run(sql, values);
  }

  /**
   * Resolves once everything written so far is committed: by the COMMIT already queued for the open transaction, so
   * callers flushing in the same turn (each worker after its decision) share one commit and one sync.
   */
  flush(): Promise<void> {
    const taken = this.run(() => {
      const lost = this.lostSinceFlush;
      this.lostSinceFlush = undefined;
      return lost;
    }, true);
    // Thrown here, outside the task: a failure of a task rolls the open transaction back, and this one wrote nothing.
    return taken.then(
      (lost) => {
        if (lost) throw lost;
      },
      (error: unknown) => {
        // The commit it waited for failed: that is the loss, told once.
        this.lostSinceFlush = undefined;
        throw error;
      },
    );
  }

  /** Commits the open transaction (its queued turn, or at once for close). */
  async commit(): Promise<void> {
    const txn = this.txn;
    if (!txn) return;
    const started = performance.now();
    try {
      await this.driver.commit();
    } catch (error) {
      await this.abort(error);
      throw new StoreError('io', `A commit failed: ${describeCause(error)}.`, { cause: error });
    }
    this.txn = undefined;
    this.counters.writes += 1;
    this.counters.lastWriteMs = Math.round((performance.now() - started) * 10) / 10;
    txn.resolve();
  }

  /**
   * A task failed after it wrote (a caller's `update` threw, a row did not parse, a statement failed): its own
   * writes are undone, the other tasks' writes stay in the open transaction. When even that fails (the engine
   * already rolled the transaction back, the connection is gone), the whole transaction is rolled back.
   */
  private async undoTask(error: unknown): Promise<void> {
    this.savepoint = false;
    this.recent.clear();
    try {
      await this.driver.run('ROLLBACK TO SAVEPOINT task');
      await this.driver.run('RELEASE SAVEPOINT task');
    } catch {
      return this.abort(error);
    }
    await this.reread();
  }

  private async abort(error: unknown): Promise<void> {
    const txn = this.txn;
    if (!txn) return;
    this.txn = undefined;
    this.recent.clear();
    this.logger.error({ code: 'io', problem: describeCause(error) }, 'store write failed; its transaction was rolled back');
    await Promise.resolve(this.driver.rollback()).catch(() => {});
    const reported =
      error instanceof StoreError ? error : new StoreError('io', `A write failed: ${describeCause(error)}.`, { cause: error });
    this.lostSinceFlush = reported;
    await this.reread();
    txn.reject(reported);
  }

  private reread(): Promise<void> {
    return Promise.resolve(this.afterRollback?.()).catch((cause: unknown) =>
      this.logger.error({ code: 'io', problem: describeCause(cause) }, 'store counters could not be read again after a rollback'),
    );
  }
}

/** A live conversation's rows: its body, its dialog column and its transcript lines. */
export interface ConversationRows {
  body: string;
  dialog: string | null;
  rows: Array<{ seq: number; body: string }>;
}

const RECENT_LIMIT = 1000;

/** The last `RECENT_LIMIT` conversations' rows used, the least recently used dropped first. */
class RecentRows extends Map<string, ConversationRows> {
  use(key: string, rows: ConversationRows): void {
    this.delete(key);
    this.set(key, rows);
    if (this.size > RECENT_LIMIT) this.delete(this.keys().next().value!);
  }
}
