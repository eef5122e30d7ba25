import { performance } from 'node:perf_hooks';
import { describeCause } from '../store-error.js';
import type { StoreLogger } from '../store-options.js';
import type { Lease } from './lease.js';

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

export interface LeaseKeeper {
  stop(): void;
}

/**
 * Renews the lease every third of its TTL and watches the time: the lease is surely ours until the TTL has
 * run from the moment the last successful renewal was sent (the database dated it later still). When no renewal
 * has gone through by a fifth of the TTL before that (database unreachable, network cut), the instance steps
 * down before a standby can take over, so the two never act together.
 */
export function keepLease(lease: Lease, ttlMs: number, sentAt: number, logger: StoreLogger, events: LeaseEvents): LeaseKeeper {
  const margin = Math.max(50, Math.floor(ttlMs / 5));
  let validUntil = sentAt + ttlMs;
  let renewing = false;
  let lost = false;
  const lose = (why: 'taken' | 'expired'): void => {
    if (lost) return;
    lost = true;
    stop();
    lease.forget();
    logger.error(
      { why },
      why === 'taken'
        ? 'the PostgreSQL lease was taken by another instance: stepping down to standby'
        : 'the PostgreSQL lease could not be renewed before it expires: stepping down to standby',
    );
    events.onLost?.(why);
  };
  const renew = setInterval(
    () => {
      if (renewing || lost) return;
      renewing = true;
      const sent = performance.now();
      lease
        .renew()
        .then(
          (held) => {
            if (lost) return;
            if (!held) return lose('taken');
            validUntil = sent + ttlMs;
            events.onRenewed?.();
          },
          (error: unknown) => logger.warn({ err: describeCause(error) }, 'cannot renew the PostgreSQL lease'),
        )
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(100, Math.floor(ttlMs / 3)),
  );
  const watch = setInterval(
    () => {
      if (performance.now() >= validUntil - margin) lose('expired');
    },
    Math.max(20, Math.floor(ttlMs / 20)),
  );
  renew.unref();
  watch.unref();
  function stop(): void {
    clearInterval(renew);
    clearInterval(watch);
  }
  return { stop };
}
