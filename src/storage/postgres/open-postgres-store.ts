import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg, { type ClientBase, type PoolClient } from 'pg';
import { type SchemaStep, applySchema, schemaSteps } from '../sql-schema.js';
import { openSqlStore } from '../sql-store/open-sql-store.js';
import { StoreError, describeCause } from '../store-error.js';
import { type StoreOptions, resolveStoreOptions } from '../store-options.js';
import type { Store } from '../store.js';
import { Lease, type LeaseEvents } from './lease.js';
import { pgDriver } from './pg-driver.js';

export interface PostgresStoreOptions extends StoreOptions {
  /** `BRIDGE_DATABASE_URL`; TLS when it says so (`sslmode=require` and the like, as `pg` reads it). */
  databaseUrl: string;
  /** How long the lease lasts unrenewed: a dead instance is replaced within about this long. */
  leaseTtlMs?: number;
  /** Names this instance in the lease row (default host and pid). */
  instanceName?: string;
  /**
   * Standby: when a live instance holds the lease, wait (trying every third of the TTL) and take over once
   * it stops renewing, instead of refusing with `locked`. `onStandby` is told once, when the wait begins.
   */
  standby?: { signal?: AbortSignal; onStandby?: () => void };
  /** Told of renewals, and once when the lease is lost: the owner must then stop acting and close the store. */
  lease?: LeaseEvents;
}

// As BRIDGE_LEASE_TTL_MS's default: a standby takes over within about four thirds of it (≈ 14 s).
const DEFAULT_LEASE_TTL_MS = 10_000;
const DEFAULT_WRITE_INTERVAL_MS = 55;

/**
 * Opens the store on PostgreSQL: applies the base schema, takes the lease (rejects with `locked` when a live
 * instance holds it, unless a standby), applies the later schema steps, and renews the lease in the background; a
 * lost lease makes every later call fail with `locked` and is told to `lease.onLost`.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const resolved = resolveStoreOptions(options, DEFAULT_WRITE_INTERVAL_MS);
  const ttlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  // A client losing its connection must not crash the process: the next query reports it. The pool listens only to
  // its idle clients: one it let go after a timeout (network cut) reports its end later, and an error event nobody
  // listens to would end the process.
  const connectionLost = (error: Error): void => resolved.logger.warn({ err: describeCause(error) }, 'PostgreSQL connection lost');
  const newPool = (config: pg.PoolConfig): pg.Pool => {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, keepAlive: true, ...config });
    pool.on('error', connectionLost);
    pool.on('connect', (client) => client.on('error', connectionLost));
    return pool;
  };
  // A database that does not answer (network cut) fails a connection attempt instead of hanging the instance.
  // A write transaction cut off half-way holds the lease row `FOR SHARE`: the server ends it after half the TTL,
  // or the successor's takeover would wait for it until the server noticed the dead connection (hours).
  const pool = newPool({
    connectionTimeoutMillis: Math.max(5000, ttlMs),
    idle_in_transaction_session_timeout: Math.max(500, Math.floor(ttlMs / 2)),
    // A query on a connection that went dead without a reset fails in time instead of holding its caller forever.
    query_timeout: Math.max(30_000, 2 * ttlMs),
  });
  // The lease has its own connection with short timeouts: a renewal never queues behind writes, and a
  // database that stops answering (network cut) fails it in time for the watch to step down.
  const leaseTimeoutMs = Math.max(1000, Math.floor(ttlMs / 3));
  const leasePool = newPool({
    max: 1,
    query_timeout: leaseTimeoutMs,
    statement_timeout: leaseTimeoutMs,
    connectionTimeoutMillis: leaseTimeoutMs,
  });
  const lease = new Lease(leasePool, options.instanceName ?? `${hostname()}:${process.pid}`, ttlMs);
  const release = async (): Promise<void> => {
    await lease.release().catch(() => {});
    await Promise.all([pool.end(), leasePool.end()]);
  };
  try {
    // The base before the lease (the lease row is in it), the later steps only once this instance holds the lease,
    // so a newer standby never changes the schema under a running active instance.
    await migrate(pool, BASE_SCHEMA_VERSION);
    let sentAt = performance.now();
    if (!(await lease.tryAcquire())) {
      if (!options.standby) throw new StoreError('locked', 'Another engage-bridge instance holds the PostgreSQL lease.');
      options.standby.onStandby?.();
      resolved.logger.info({ leaseTtlMs: ttlMs }, 'standby: another instance holds the PostgreSQL lease');
      sentAt = await waitForLease(lease, Math.max(100, Math.floor(ttlMs / 3)), options.standby.signal);
      resolved.logger.info({ token: lease.fencingToken }, 'took over the PostgreSQL lease: now active');
    }
    // Renewing from now: loading a large state must not let the lease lapse.
    lease.keep(sentAt, resolved.logger, options.lease ?? {});
    await migrate(pool);
    const connection = await connect(pool);
    try {
      return await openSqlStore(pgDriver(connection, lease, release), resolved, 'the PostgreSQL store');
    } catch (error) {
      connection.release();
      throw error;
    }
  } catch (error) {
    await release();
    throw error;
  }
}

/** The first step: the tables every instance needs before it can even ask for the lease. */
export const BASE_SCHEMA_VERSION = 1;
/** The shared schema's steps in PostgreSQL's words (`../sql-schema.ts`). */
export const SCHEMA_STEPS = schemaSteps('postgres');

/** Applies the steps this database lacks, up to `upTo`; returns the versions applied. */
export function migrateSchema(client: ClientBase, o: { upTo?: number; steps?: SchemaStep[] } = {}): Promise<number[]> {
  return applySchema(async (sql) => (await client.query(sql)).rows, 'postgres', o.upTo, o.steps);
}

async function migrate(pool: pg.Pool, upTo?: number): Promise<void> {
  const client = await connect(pool);
  try {
    await migrateSchema(client, { upTo });
  } catch (error) {
    throw new StoreError('schema', `Cannot migrate the PostgreSQL schema: ${describeCause(error)}`, { cause: error });
  } finally {
    client.release();
  }
}

function connect(pool: pg.Pool): Promise<PoolClient> {
  return pool.connect().catch((error: unknown) => {
    throw new StoreError('io', `Cannot connect to PostgreSQL: ${describeCause(error)}.`, { cause: error });
  });
}

/** Resolves with the moment the successful try was sent (the lease runs from no earlier). */
async function waitForLease(lease: Lease, everyMs: number, signal: AbortSignal | undefined): Promise<number> {
  for (;;) {
    await sleep(everyMs, undefined, { signal }).catch(() => {});
    if (signal?.aborted) throw new StoreError('closed', 'Stopped while waiting as a standby for the PostgreSQL lease.');
    // A failed try (the database briefly unreachable) is tried again: the standby has nothing else to do.
    const sentAt = performance.now();
    if (await lease.tryAcquire().catch(() => false)) return sentAt;
  }
}
