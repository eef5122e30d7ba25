import { SERVICE_WINDOW_HOURS, type Channel } from '../shared/channels.js';
import type { ConversationRecord } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';

/**
 * The service's time now, as its latest answer said (undefined before any). The service's timestamps (a mention's
 * `date.added`, a conversation's `lastInboundAt`) are compared with this, never with the bridge's clock.
 */
export function serviceNowMs(ctx: Pick<BridgeContext, 'engage'>): number | undefined {
  const read = (ctx.engage as { serviceNowMs?: () => number | undefined }).serviceNowMs;
  return typeof read === 'function' ? read() : undefined;
}

/** The message (stamped `addedAtMs` by the service) waited longer than the maximum reply age. */
export function isLate(ctx: Pick<BridgeContext, 'engage' | 'settings'>, addedAtMs: number): boolean {
  const maxMinutes = ctx.settings.maxReplyAgeMinutes ?? 0;
  const now = serviceNowMs(ctx);
  return maxMinutes > 0 && now !== undefined && addedAtMs > 0 && now - addedAtMs > maxMinutes * 60_000;
}

/**
 * The channel's customer-service window is closed: its customer's last message is older than the window (by the
 * service's clock). Unknown (no customer message recorded, no answer of the service yet) counts as open.
 */
export function serviceWindowClosed(
  ctx: Pick<BridgeContext, 'engage'>,
  conv: Pick<ConversationRecord, 'channel' | 'lastInboundAt'>,
): boolean {
  const hours = SERVICE_WINDOW_HOURS[conv.channel as Channel];
  const now = serviceNowMs(ctx);
  if (hours === undefined || now === undefined || conv.lastInboundAt === undefined) return false;
  return now - conv.lastInboundAt > hours * 3_600_000;
}
