import { hostname } from 'node:os';
import pg from 'pg';
import { StoreCore } from '../store-core.js';
import { StoreError, describeCause } from '../store-error.js';
import { resolveStoreOptions } from '../store-options.js';
import type { StoreOptions } from '../store-options.js';
import type { Store } from '../store.js';
import { Lease } from './lease.js';
import { PostgresPersistence } from './postgres-persistence.js';
import { migrateSchema } from './schema-migrations.js';
import { CURRENT_SCHEMA_VERSION } from '../hot-state.js';

export interface PostgresStoreOptions extends StoreOptions {
  /** `BRIDGE_DATABASE_URL`; TLS when it says so (`sslmode=require` and the like, as `pg` reads it). */
  databaseUrl: string;
  /** How long the lease lasts unrenewed: a dead instance is replaced within about this long. */
  leaseTtlMs?: number;
  /** Names this instance in the lease row (default host and pid). */
  instanceName?: string;
  poolSize?: number;
  /**
   * Standby: when a live instance holds the lease, wait (trying every third of the TTL) and take over once
   * it stops renewing, instead of refusing with `locked`. `onStandby` is told once, when the wait begins.
   */
  standby?: { signal?: AbortSignal; onStandby?: () => void };
}

const DEFAULT_LEASE_TTL_MS = 15_000;
const DEFAULT_WRITE_INTERVAL_MS = 55;

/**
 * Opens the store on PostgreSQL: migrates the schema (once, under an advisory lock), takes the lease
 * (rejects with `locked` when a live instance holds it), loads the state, and renews the lease in the
 * background; a lost lease makes every later write fail with `locked`.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const resolved = resolveStoreOptions(options, DEFAULT_WRITE_INTERVAL_MS);
  const ttlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 5 });
  // An idle client losing its connection must not crash the process: the next query reports it.
  pool.on('error', (error) => resolved.logger.warn({ err: describeCause(error) }, 'PostgreSQL connection lost'));
  const lease = new Lease(pool, options.instanceName ?? `${hostname()}:${process.pid}`, ttlMs);
  let timer: NodeJS.Timeout | undefined;
  const release = async (): Promise<void> => {
    if (timer) clearInterval(timer);
    await lease.release().catch(() => {});
    await pool.end();
  };
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw new StoreError('io', `Cannot connect to PostgreSQL: ${describeCause(error)}.`, { cause: error });
    });
    try {
      await migrateSchema(client);
    } catch (error) {
      throw new StoreError('schema', `Cannot migrate the PostgreSQL schema: ${describeCause(error)}.`, { cause: error });
    } finally {
      client.release();
    }
    if (!(await lease.tryAcquire())) {
      if (!options.standby) throw new StoreError('locked', 'Another engage-bridge instance holds the PostgreSQL lease.');
      options.standby.onStandby?.();
      resolved.logger.info({ leaseTtlMs: ttlMs }, 'standby: another instance holds the PostgreSQL lease');
      await waitForLease(lease, Math.max(100, Math.floor(ttlMs / 3)), options.standby.signal);
      resolved.logger.info({ token: lease.fencingToken }, 'took over the PostgreSQL lease: now active');
    }
    const persistence = new PostgresPersistence(pool, lease.fence, resolved.logger, release);
    const { state, migrated } = await persistence.load(resolved.clock());
    timer = setInterval(
      () => {
        lease.renew().then(
          (held) => {
            if (!held) resolved.logger.error({}, 'the PostgreSQL lease was lost: this instance no longer writes');
          },
          (error: unknown) => resolved.logger.warn({ err: describeCause(error) }, 'cannot renew the PostgreSQL lease'),
        );
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    timer.unref();
    const store = new StoreCore(state, persistence, resolved);
    // A migrated state is written in the new layout at once (core and re-keyed shards in one transaction).
    if (migrated) {
      await store.persistAll();
      resolved.logger.info({ toVersion: CURRENT_SCHEMA_VERSION }, 'PostgreSQL store state migrated');
    }
    return store;
  } catch (error) {
    await release();
    throw error;
  }
}

async function waitForLease(lease: Lease, everyMs: number, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw new StoreError('closed', 'Stopped while waiting as a standby for the PostgreSQL lease.');
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, everyMs);
      signal?.addEventListener('abort', wake);
    });
    // A failed try (the database briefly unreachable) is tried again: the standby has nothing else to do.
    if (!signal?.aborted && (await lease.tryAcquire().catch(() => false))) return;
  }
}
