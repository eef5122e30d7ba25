import type { Pool, PoolClient } from 'pg';
import { StoreError } from '../store-error.js';

/**
 * The lease row: one holder at a time, until `expires_at`. Each acquisition raises the fencing token, and
 * every write checks it in its own transaction (`FOR SHARE` holds off a concurrent takeover until the write
 * commits), so a deposed instance's writes are refused by the database itself.
 */
export class Lease {
  private token: string | undefined;

  constructor(
    private readonly pool: Pool,
    readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  get fencingToken(): string | undefined {
    return this.token;
  }

  /** Takes the lease when it is free, expired or already ours; returns whether we hold it now. */
  async tryAcquire(): Promise<boolean> {
    const { rows } = await this.pool.query<{ token: string }>(
      `UPDATE bridge_lease SET holder = $1, token = token + 1, expires_at = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id = 1 AND (expires_at < now() OR holder = '' OR (holder = $1 AND token = $3::bigint)) RETURNING token`,
      [this.holder, this.ttlMs, this.token ?? '-1'],
    );
    this.token = rows[0]?.token;
    return this.token !== undefined;
  }

  /** Extends the lease; false when it was lost (expired and taken by another instance). */
  async renew(): Promise<boolean> {
    if (this.token === undefined) return false;
    const { rowCount } = await this.pool.query(
      `UPDATE bridge_lease SET expires_at = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id = 1 AND holder = $1 AND token = $3::bigint`,
      [this.holder, this.ttlMs, this.token],
    );
    if (rowCount === 1) return true;
    this.token = undefined;
    return false;
  }

  /** Stops writing at once: the lease could not be renewed in time, so another instance may hold it now. */
  forget(): void {
    this.token = undefined;
  }

  /** Gives the lease up at once, so a standby need not wait for it to expire. */
  async release(): Promise<void> {
    if (this.token === undefined) return;
    await this.pool.query(`UPDATE bridge_lease SET holder = '', expires_at = 'epoch' WHERE id = 1 AND holder = $1 AND token = $2::bigint`, [
      this.holder,
      this.token,
    ]);
    this.token = undefined;
  }

  /** What every write checks: the lease still held here, then in the write's own transaction. */
  readonly fence = {
    // Known lost (taken, or not renewed in time): refused at once, without waiting on a database that may not answer.
    assertHeld: (): void => {
      if (this.token === undefined)
        throw new StoreError('locked', 'This instance no longer holds the PostgreSQL lease: it may no longer write.');
    },
    check: async (client: PoolClient): Promise<void> => {
      const { rows } = await client.query<{ token: string }>('SELECT token FROM bridge_lease WHERE id = 1 FOR SHARE');
      if (this.token === undefined || rows[0]?.token !== this.token) {
        throw new StoreError('locked', 'Another engage-bridge instance holds the PostgreSQL lease: this instance may no longer write.');
      }
    },
  };
}
