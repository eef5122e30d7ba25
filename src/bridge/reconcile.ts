import { isOpen } from '../bot/index.js';
import { readOwnership } from '../engage/index.js';
import type { BridgeContext } from './bridge-context.js';
import type { ConversationEvents } from './conversation-events.js';
import { splitKey } from './contact-key.js';
import { noticeOf } from './perform-effect.js';

export interface ReconcileReport {
  readonly resolved: number;
  readonly idle: number;
  readonly returnedByService: number;
  readonly released: number;
  readonly stuck: number;
}

/**
 * The scheduler's periodic pass, so that ownership never gets stuck: contacts whose people are done (resolved,
 * idle, or given back in the service's tool) return to the bot; queued escalations go out when hours open;
 * escalations nobody picked up are announced once.
 */
export class Reconciler {
  private readonly announcedStuck = new Set<string>();

  constructor(private readonly ctx: BridgeContext, private readonly events: ConversationEvents) {}

  async run(): Promise<ReconcileReport> {
    const { ctx } = this;
    const report = { resolved: 0, idle: 0, returnedByService: 0, released: 0, stuck: 0 };
    if (ctx.health.revoked) return report;
    const now = ctx.now();
    for (const conv of await ctx.store.listConversations({ owner: 'agents' })) {
      const key = conv.key;
      try {
        if (conv.lastMentionId && conv.lastMentionTopicId) {
          const mention = await ctx.engage.mentions.get({ topicId: conv.lastMentionTopicId, id: conv.lastMentionId });
          if (mention.status === 'done') {
            if ((await this.events.returnToBot(key, 'resolved', 'agent', 'the agent resolved the conversation')).changed) report.resolved++;
            continue;
          }
        }
        const idleMs = ctx.settings.idleReturnMinutes * 60_000;
        const lastHuman = Math.max(conv.lastHumanActivityAt ?? 0, conv.ownerChangedAt ?? 0);
        if (idleMs > 0 && now - lastHuman > idleMs) {
          if ((await this.events.returnToBot(key, 'idle', 'bridge', `no human activity for ${ctx.settings.idleReturnMinutes} minutes`)).changed) report.idle++;
          continue;
        }
        if (now - (conv.ownerConfirmedAt ?? 0) > 2 * ctx.settings.ownerConfirmAgeMs) {
          const { service, serviceId } = splitKey(key);
          const o = readOwnership(await ctx.engage.handover.get({ service, serviceId }));
          if (o.owner === 'application') {
            if ((await this.events.returnToBot(key, 'service', 'service', 'returned to the application in the service')).changed) report.returnedByService++;
          } else {
            await ctx.store.updateConversation(key, (c) => (c ? { ...c, ownerConfirmedAt: ctx.now() } : undefined));
          }
        }
      } catch (err) {
        ctx.log.warn({ contact: key, err: (err as Error).message }, 'reconcile of a contact failed; trying again next time');
      }
    }
    report.released = await this.releaseQueued();
    report.stuck = await this.announceStuck();
    return report;
  }

  /** Queued escalations go to the people once the schedule is open (or when no schedule is known). */
  async releaseQueued(): Promise<number> {
    const { ctx } = this;
    const schedule = ctx.hours.current();
    const open = schedule ? (ctx.hours.input().isActive ?? isOpen(schedule, ctx.now())) : true;
    if (!open) return 0;
    let released = 0;
    for (const e of await ctx.store.listEscalations({ status: 'queued' })) {
      try {
        await this.events.releaseQueued(e.contactKey, e.id);
        released++;
      } catch (err) {
        ctx.log.warn({ escalation: e.id, err: (err as Error).message }, 'could not release a queued escalation; trying again');
      }
    }
    return released;
  }

  private async announceStuck(): Promise<number> {
    const { ctx } = this;
    const minutes = ctx.settings.stuckEscalationMinutes;
    if (minutes <= 0) return 0;
    let stuck = 0;
    for (const e of await ctx.store.listEscalations({ status: 'open' })) {
      if (this.announcedStuck.has(e.id) || ctx.now() - e.createdAt < minutes * 60_000) continue;
      const conv = await ctx.store.getConversation(e.contactKey);
      if (conv && (conv.lastHumanActivityAt ?? 0) > e.createdAt) continue;
      this.announcedStuck.add(e.id);
      stuck++;
      const transcript = (conv?.transcript ?? []).flatMap((l) => (l.from === 'system' ? [] : [{ ...l, from: l.from }]));
      ctx.notifier.escalationStuck(
        noticeOf(e.id, e.contactKey, conv?.contactName, e.reason, '', e.summary, transcript.slice(-10), e.permalink, e.createdAt),
        Math.round((ctx.now() - e.createdAt) / 60_000),
      );
      await ctx.store.audit({ at: ctx.now(), actor: 'bridge', action: 'escalation stuck', subject: e.contactKey, reason: `nobody took it for ${minutes} minutes` });
    }
    return stuck;
  }
}
