import { EngageError } from '../../engage/index.js';
import { mentionRef, type InboundMention } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import { judgeEffectError } from './effect-errors.js';
import { listDead } from './effect-dead.js';

/**
 * True when processing a mention failed in a way that will never mend by retrying: the service refused the
 * request itself (not found, invalid parameter, scope). The outbox's classification decides, so the two agree.
 */
export function isPermanentFailure(err: unknown): boolean {
  return judgeEffectError(err, 0, 0).kind === 'give-up';
}

/**
 * Parks an inbound mention for good: marked processed (so neither a later run nor a restart takes it again),
 * audited, counted in `engage_bridge_mentions_dead_total`, and listed by `status` beside the dead effects.
 */
export async function parkDeadMention(ctx: BridgeContext, item: InboundMention, err: unknown): Promise<void> {
  const reason = err instanceof EngageError ? err.humanMessage || err.message : ((err as Error)?.message ?? String(err));
  const code = err instanceof EngageError ? err.code : 'error';
  ctx.log.error(
    { contact: item.key, mention: item.id, err: (err as Error)?.message },
    'mention parked as dead: it will not be tried again',
  );
  await ctx.store.markInboundProcessed(item.topicId, item.id);
  await ctx.store.audit({ at: ctx.now(), actor: 'bridge', action: 'gave up mention', subject: item.key, reason, result: 'failed' });
  ctx.metrics.mentionsDead.inc({ code });
  await listDead(ctx, { key: mentionRef(item.topicId, item.id), kind: 'mention', contactKey: item.key, reason, atMs: ctx.now() });
}
