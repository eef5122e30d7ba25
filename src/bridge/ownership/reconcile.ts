import { isOpen } from '../../bot/index.js';
import { readOwnership } from '../../engage/index.js';
import type { ConversationRecord } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import type { ConversationEvents } from '../conversation-events.js';
import { splitKey } from '../contact-key.js';
import { noticeOf } from '../escalation-record.js';

/** At most this many contacts are looked up on the service per run (every 15 s). */
const MAX_CHECKS_PER_RUN = 20;
/** A contact is looked up at most this often. */
const CHECK_EVERY_MS = 30_000;
/** Idle returns per run, so a restart after a long stop does not fire thousands of handovers at once. */
const MAX_RETURNS_PER_RUN = 50;
/**
 * Every conversation people hold is gone over (for idle returns) at most this often; the runs between read only
 * those updated within the idle time and those with an escalation (issue 28: the full pass reads each record from
 * disk, 0.6 s of CPU every 15 s with 5,000 of them held by people, and it grows with them).
 */
export const FULL_PASS_EVERY_MS = 60_000;

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
 * escalations nobody picked up are announced once (remembered in the store, so also once across restarts).
 */
export class Reconciler {
  private readonly checkedAt = new Map<string, number>();
  private lastFullPassAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: BridgeContext,
    private readonly events: ConversationEvents,
  ) {}

  async run(): Promise<ReconcileReport> {
    const { ctx } = this;
    const report = { resolved: 0, idle: 0, returnedByService: 0, released: 0, stuck: 0 };
    if (ctx.health.revoked) return report;
    const now = ctx.now();
    const idleMs = ctx.settings.idleReturnMinutes * 60_000;
    const escalations = await ctx.store.listEscalations({ status: ['open', 'queued', 'taken'] });
    const active = new Set(escalations.filter((e) => e.status !== 'queued').map((e) => e.contactKey));
    // Nobody has answered these yet: the customer keeps their place with people (the stuck alert covers them).
    const unanswered = new Set(escalations.filter((e) => e.status !== 'taken').map((e) => e.contactKey));
    const toCheck: ConversationRecord[] = [];
    const visit = async (conv: ConversationRecord): Promise<void> => {
      if (idleMs > 0 && !unanswered.has(conv.key) && answeredSinceHandover(conv) && now - idleSince(conv) > idleMs) {
        if (report.idle >= MAX_RETURNS_PER_RUN) return; // the rest go next time: no storm of calls after a long stop
        try {
          if (
            (await this.events.returnToBot(conv.key, 'idle', 'bridge', `no human activity for ${ctx.settings.idleReturnMinutes} minutes`))
              .changed
          )
            report.idle++;
        } catch (err) {
          ctx.log.warn({ contact: conv.key, err: (err as Error).message }, 'could not return an idle contact; trying again next time');
        }
        return;
      }
      // Only contacts people are working on are looked up, each at most once a minute, a bounded number per run.
      // Our clock against our clock: `updatedAt` moves with every message we take in for the contact.
      const recent = conv.lastInboundAt !== undefined && idleMs > 0 && now - conv.updatedAt < idleMs;
      if ((active.has(conv.key) || recent) && now - (this.checkedAt.get(conv.key) ?? 0) >= CHECK_EVERY_MS) toCheck.push(conv);
    };
    // One conversation at a time (most of them cold, on disk): people may hold tens of thousands, and a pass every
    // 15 s must not bring them all into memory at once, nor read them all each time.
    if (now - this.lastFullPassAt >= FULL_PASS_EVERY_MS || now < this.lastFullPassAt) {
      this.lastFullPassAt = now;
      await ctx.store.eachConversation({ owner: 'agents' }, visit);
    } else {
      // Every contact the lookups below may pick: `recent` ones were updated within the idle time, the others have
      // an escalation. An idle one updated earlier is returned by the next full pass, within FULL_PASS_EVERY_MS.
      const read = new Set<string>();
      if (idleMs > 0) {
        await ctx.store.eachConversation({ owner: 'agents', updatedSince: now - idleMs }, (conv) => {
          read.add(conv.key);
          return visit(conv);
        });
      }
      for (const key of active) {
        if (read.has(key)) continue;
        const conv = await ctx.store.getConversation(key);
        if (conv?.owner === 'agents') await visit(conv);
      }
    }
    toCheck.sort((a, b) => (this.checkedAt.get(a.key) ?? 0) - (this.checkedAt.get(b.key) ?? 0));
    for (const conv of toCheck.slice(0, MAX_CHECKS_PER_RUN)) {
      this.checkedAt.set(conv.key, now);
      try {
        const outcome = await this.checkWithService(conv);
        if (outcome === 'resolved') report.resolved++;
        if (outcome === 'service') report.returnedByService++;
      } catch (err) {
        ctx.log.warn({ contact: conv.key, err: (err as Error).message }, 'reconcile of a contact failed; trying again next time');
      }
    }
    if (this.checkedAt.size > 50_000) this.checkedAt.clear();
    report.released = await this.releaseQueued();
    report.stuck = await this.announceStuck();
    return report;
  }

  /** Did the agent resolve the conversation, or give the contact back in the service's tool? */
  private async checkWithService(conv: ConversationRecord): Promise<'resolved' | 'service' | undefined> {
    const { ctx } = this;
    if (conv.lastMentionId && conv.lastMentionTopicId) {
      const mention = await ctx.engage.mentions.get({ topicId: conv.lastMentionTopicId, id: conv.lastMentionId });
      if (mention.status === 'done') {
        return (await this.events.returnToBot(conv.key, 'resolved', 'agent', 'the agent resolved the conversation')).changed
          ? 'resolved'
          : undefined;
      }
    }
    if (ctx.now() - (conv.ownerConfirmedAt ?? 0) <= 2 * ctx.settings.ownerConfirmAgeMs) return undefined;
    const { service, serviceId } = splitKey(conv.key);
    const o = readOwnership(await ctx.engage.handover.get({ service, serviceId }));
    if (o.owner === 'application') {
      return (await this.events.returnToBot(conv.key, 'service', 'service', 'returned to the application in the service')).changed
        ? 'service'
        : undefined;
    }
    await ctx.store.updateConversation(conv.key, (c) => (c ? { ...c, ownerConfirmedAt: ctx.now() } : undefined));
    return undefined;
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
      if (e.stuckAnnouncedAt !== undefined || ctx.now() - e.createdAt < minutes * 60_000) continue;
      const conv = await ctx.store.getConversation(e.contactKey);
      // Both on our clock: the escalation's creation and the moment we saw a person act.
      if (conv && (conv.humanSeenAt ?? 0) > e.createdAt) continue;
      try {
        // Stored before the notice goes out: at most one announcement, also across restarts.
        await ctx.store.updateEscalation(e.id, { stuckAnnouncedAt: ctx.now() });
      } catch (err) {
        ctx.log.warn({ escalation: e.id, err: (err as Error).message }, 'could not record a stuck escalation; trying again next time');
        continue;
      }
      stuck++;
      const transcript = (conv?.transcript ?? []).flatMap((l) => (l.from === 'system' ? [] : [{ ...l, from: l.from }]));
      ctx.notifier.escalationStuck(
        noticeOf(e.id, e.contactKey, conv?.contactName, e.reason, '', e.summary, transcript.slice(-10), e.permalink, e.createdAt),
        Math.round((ctx.now() - e.createdAt) / 60_000),
      );
      await ctx.store.audit({
        at: ctx.now(),
        actor: 'bridge',
        action: 'escalation stuck',
        subject: e.contactKey,
        reason: `nobody took it for ${minutes} minutes`,
      });
    }
    return stuck;
  }
}

/**
 * People acted on the contact since it went to them (our clock). Only then can it go idle and come back to the bot:
 * a contact handed over with no escalation record (`release`, a manager, the on-stop hand-over) that nobody has
 * answered stays with people, as an unanswered escalation does.
 */
function answeredSinceHandover(conv: ConversationRecord): boolean {
  const seen = conv.humanSeenAt ?? (conv.lastHumanActivityAt !== undefined ? conv.updatedAt : undefined);
  return seen !== undefined && seen >= (conv.ownerChangedAt ?? 0);
}

/**
 * When the contact's idle time starts, on the bridge's own clock: the last human activity we saw, or the moment
 * people got the contact when nobody has acted since. A record from before `humanSeenAt` existed has only the
 * service's date of the activity, which is never compared with our clock; its last update (our clock, moved by
 * that activity) stands in.
 */
function idleSince(conv: ConversationRecord): number {
  const seen = conv.humanSeenAt ?? (conv.lastHumanActivityAt !== undefined ? conv.updatedAt : 0);
  return Math.max(seen, conv.ownerChangedAt ?? 0) || conv.updatedAt;
}
