import type { Effect, Store } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';

/** Where parked effects are listed for `status` (store meta survives restarts); the newest few are kept. */
const DEAD_META = 'deadEffects';
const KEEP_LATEST = 20;

export interface DeadEffect {
  readonly key: string;
  readonly kind: string;
  readonly contactKey: string;
  readonly reason: string;
  readonly atMs: number;
}

export interface DeadEffects {
  readonly count: number;
  readonly latest: readonly DeadEffect[];
}

export async function deadEffects(store: Pick<Store, 'getMeta'>): Promise<DeadEffects> {
  const value = (await store.getMeta()).values[DEAD_META] as Partial<DeadEffects> | undefined;
  return { count: typeof value?.count === 'number' ? value.count : 0, latest: Array.isArray(value?.latest) ? value.latest : [] };
}

/**
 * Parks an effect for good: it will never be tried again (a permanent error, or its retries used up). A manager
 * sees it: in the audit log, in `engage_bridge_effects_dead_total`, and in `status`.
 */
export async function parkDead(
  ctx: Pick<BridgeContext, 'store' | 'now' | 'log' | 'metrics'>,
  effect: Effect,
  reason: string,
): Promise<void> {
  ctx.log.error({ contact: effect.contactKey, effect: effect.key, err: reason }, 'effect parked as dead: it will not be tried again');
  await ctx.store.failEffect(effect.key, reason);
  await ctx.store.audit({
    at: ctx.now(),
    actor: 'bridge',
    action: `gave up ${effect.kind}`,
    subject: effect.contactKey,
    reason,
    result: 'failed',
  });
  ctx.metrics.effectsDead.inc({ kind: effect.kind });
  await listDead(ctx, { key: effect.key, kind: effect.kind, contactKey: effect.contactKey, reason, atMs: ctx.now() });
  // A reply's end is on disk before anything after it runs (see effect-doubt.ts).
  if (effect.kind === 'reply') await ctx.store.flush();
}

/** Adds a parked item (an effect, or an inbound mention: see mention-dead.ts) to the list `status` shows. */
export async function listDead(ctx: Pick<BridgeContext, 'store'>, entry: DeadEffect): Promise<void> {
  const before = await deadEffects(ctx.store);
  await ctx.store.setMeta({
    values: { [DEAD_META]: { count: before.count + 1, latest: [entry, ...before.latest].slice(0, KEEP_LATEST) } },
  });
}

/**
 * Drops one contact from the list `status` shows (`forget`); the count of parked items stays (it names nobody).
 * Returns how many entries named the contact; with `dryRun`, only counts.
 */
export async function forgetDead(store: Pick<Store, 'getMeta' | 'setMeta'>, contactKey: string, dryRun: boolean): Promise<number> {
  const before = await deadEffects(store);
  const latest = before.latest.filter((entry) => entry.contactKey !== contactKey);
  const named = before.latest.length - latest.length;
  if (named > 0 && !dryRun) await store.setMeta({ values: { [DEAD_META]: { count: before.count, latest } } });
  return named;
}
