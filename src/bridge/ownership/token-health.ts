import type { BridgeContext } from '../bridge-context.js';
import { TOKEN_REFUSED } from '../notifier.js';

/** The service refused the token: the bridge pauses (readiness says why) and the managers are told, once. */
export function tokenRefused(ctx: Pick<BridgeContext, 'health' | 'log' | 'notifier'>): void {
  if (ctx.health.revoked) return;
  ctx.health.revoked = true;
  ctx.log.error({}, TOKEN_REFUSED);
  ctx.notifier.tokenRevoked();
}

/**
 * The service answered an authenticated call: the token works again, and the bridge resumes at once, not when the
 * poll that proved it ends (the contacts it just recorded would otherwise find the bridge still paused and wait
 * another 30 s). Contacts whose effects were held only by the refusal (no retry time of their own still ahead) go on now.
 */
export async function accessAccepted(ctx: Pick<BridgeContext, 'health' | 'log' | 'store' | 'wake' | 'now'>): Promise<void> {
  if (!ctx.health.revoked) return;
  ctx.health.revoked = false;
  ctx.log.info({}, 'the access token is accepted again: the bridge resumes');
  const now = ctx.now();
  const held = new Set(
    (await ctx.store.pendingEffects()).filter((e) => e.retryAt === undefined || e.retryAt <= now).map((e) => e.contactKey),
  );
  for (const key of held) ctx.wake(key);
}
