import { performance } from 'node:perf_hooks';
import type { ClientBase, Pool } from 'pg';
import { StoreError, describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';

/** What the active instance is told about its lease. */
export interface LeaseEvents {
  /** A renewal went through. */
  onRenewed?(): void;
  /**
   * The lease is gone (taken over, or not renewed in time): this instance must stop acting at once. Told once;
   * its writes are already refused (by the database, and by the forgotten token before they reach it).
   */
  onLost?(why: 'taken' | 'expired'): void;
}

/**
 * The lease row: one holder at a time, until `expires_at`. Each acquisition raises the fencing token, and
 * every write checks it in its own transaction (`FOR SHARE` holds off a concurrent takeover until the write
 * commits), so a deposed instance's writes are refused by the database itself.
 */
export class Lease {
  private token: string | undefined;
  private timers: NodeJS.Timeout[] = [];

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

  /**
   * Renews the lease every third of its TTL and watches the time: the lease is surely ours until the TTL has
   * run from the moment the last successful renewal was sent (the database dated it later still). When no renewal
   * has gone through by a fifth of the TTL before that (database unreachable, network cut), the instance steps
   * down before a standby can take over, so the two never act together.
   */
  keep(sentAt: number, logger: StoreLogger, events: LeaseEvents): void {
    let validUntil = sentAt + this.ttlMs;
    let renewing = false;
    const lose = (why: 'taken' | 'expired'): void => {
      if (this.timers.length === 0) return;
      this.stop();
      this.token = undefined;
      const what = why === 'taken' ? 'was taken by another instance' : 'could not be renewed before it expires';
      logger.error({ why }, `the PostgreSQL lease ${what}: stepping down to standby`);
      events.onLost?.(why);
    };
    const renew = async (): Promise<void> => {
      renewing = true;
      const sent = performance.now();
      try {
        const held = await this.renew();
        if (this.timers.length === 0) return;
        if (!held) return lose('taken');
        validUntil = sent + this.ttlMs;
        events.onRenewed?.();
      } catch (error) {
        logger.warn({ err: describeCause(error) }, 'cannot renew the PostgreSQL lease');
      } finally {
        renewing = false;
      }
    };
    const margin = Math.max(50, Math.floor(this.ttlMs / 5));
    this.timers = [
      setInterval(
        () => {
          if (!renewing) void renew();
        },
        Math.max(100, Math.floor(this.ttlMs / 3)),
      ),
      setInterval(
        () => {
          if (performance.now() >= validUntil - margin) lose('expired');
        },
        Math.max(20, Math.floor(this.ttlMs / 20)),
      ),
    ];
    for (const timer of this.timers) timer.unref();
  }

  /** Stops renewing (the lease runs out unless released). */
  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** Gives the lease up at once, so a standby need not wait for it to expire. */
  async release(): Promise<void> {
    this.stop();
    if (this.token === undefined) return;
    await this.pool.query(`UPDATE bridge_lease SET holder = '', expires_at = 'epoch' WHERE id = 1 AND holder = $1 AND token = $2::bigint`, [
      this.holder,
      this.token,
    ]);
    this.token = undefined;
  }

  /** Known lost (taken, or not renewed in time): refused at once, without waiting on a database that may not answer. */
  assertHeld(): void {
    if (this.token === undefined)
      throw new StoreError('locked', 'This instance no longer holds the PostgreSQL lease: it may no longer write.');
  }

  /** The lease still ours, checked in the write's own transaction. */
  async check(client: ClientBase): Promise<void> {
    const { rows } = await client.query<{ token: string }>('SELECT token FROM bridge_lease WHERE id = 1 FOR SHARE');
    if (this.token === undefined || rows[0]?.token !== this.token) {
      throw new StoreError('locked', 'Another engage-bridge instance holds the PostgreSQL lease: this instance may no longer write.');
    }
  }
}
