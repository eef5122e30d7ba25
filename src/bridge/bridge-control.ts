import { createHmac, randomBytes } from 'node:crypto';
import { type Actor, actorText } from '../shared/actor.js';
import type { HandoverTarget, Owner } from '../shared/owner.js';
import type { ConversationRecord } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import type { ConversationEvents } from './conversation-events.js';
import { keyFromSlashForm, slashForm } from './contact-key.js';
import { deadEffects } from './effects/effect-dead.js';
import { listSurveyAnswers, type SurveyAnswer } from './survey-answers.js';
import { serviceNowMs } from './service-time.js';

/** Who acts, as commands and Slack name them. */
export type ControlActor = Pick<Actor, 'id' | 'transport'>;

const actorName = actorText;

function keyOf(contactKey: string): string {
  const key = keyFromSlashForm(contactKey);
  if (!key) throw new Error(`"${contactKey}" is not a contact of the form service/service_id`);
  return key;
}

/** Without the deployment's key (tests): a keyed hash under a key of this process only, never the id in clear. */
function processPseudonym(): (contact: string) => string {
  const key = randomBytes(32);
  return (contact) => {
    const at = contact.indexOf('/');
    return `${contact.slice(0, at + 1)}c-${createHmac('sha256', key)
      .update(contact.slice(at + 1))
      .digest('hex')
      .slice(0, 10)}`;
  };
}

/**
 * What managers (Slack, terminal) may ask of the running bridge. Every owner change goes through the conversation
 * events, and so through the one ownership module and the audit log.
 */
export class BridgeControlService {
  constructor(
    private readonly ctx: BridgeContext,
    private readonly events: ConversationEvents,
    private readonly topicIds: () => Promise<readonly string[]>,
    /** `service/id` to its keyed-hash pseudonym, as log lines show it (`service/c-…`). */
    private readonly pseudonym: (contact: string) => string = processPseudonym(),
  ) {}

  /** Removes (or, on a dry run, counts) what the store keeps about the contact; the id leaves only as a pseudonym. */
  async forgetContact(
    contactKey: string,
    o: { dryRun: boolean },
    actor: ControlActor,
  ): Promise<{ known: boolean; removed: Record<string, number>; pseudonym: string }> {
    const key = keyOf(contactKey);
    const { known, ...removed } = await this.events.forget(key, o.dryRun);
    const pseudonym = this.pseudonym(slashForm(key));
    if (known && !o.dryRun) this.ctx.log.info({ contact: pseudonym, by: actorName(actor), removed }, 'a contact was forgotten');
    return { known, removed, pseudonym };
  }

  async getOwner(contactKey: string): Promise<{ owner: Owner; sinceMs?: number } | undefined> {
    const c = await this.ctx.store.getConversation(keyOf(contactKey));
    if (!c) return undefined;
    return { owner: c.owner, ...(c.ownerChangedAt !== undefined ? { sinceMs: c.ownerChangedAt } : {}) };
  }

  async setOwner(contactKey: string, owner: HandoverTarget, actor: ControlActor): Promise<{ from?: Owner; to: Owner }> {
    const key = keyOf(contactKey);
    const change =
      owner === 'bot'
        ? await this.events.returnToBot(key, 'manager', actorName(actor), 'a manager returned the contact to the bot')
        : await this.events.toAgents(key, actorName(actor), 'a manager handed the contact to agents');
    return { from: change.from, to: change.to };
  }

  async pauseBot(target: string, actor: ControlActor): Promise<{ changed: boolean; from?: Owner; to?: Owner }> {
    if (target === 'all') return this.setPausedForAll(true, actor);
    const change = await this.events.pause(keyOf(target), actorName(actor));
    return { changed: change.changed, from: change.from, to: change.to };
  }

  async resumeBot(target: string, actor: ControlActor): Promise<{ changed: boolean; from?: Owner; to?: Owner }> {
    if (target === 'all') return this.setPausedForAll(false, actor);
    const change = await this.events.resume(keyOf(target), actorName(actor));
    return { changed: change.changed, from: change.from, to: change.to };
  }

  surveyAnswers(sinceMs: number): Promise<SurveyAnswer[]> {
    return listSurveyAnswers(this.ctx.store, sinceMs);
  }

  async openEscalations(): Promise<Array<{ contactKey: string; name?: string; channel: string; reason: string; sinceMs: number }>> {
    const list = await this.ctx.store.listEscalations({ status: ['open', 'queued', 'taken'] });
    const out = [];
    for (const e of list) {
      const c = await this.ctx.store.getConversation(e.contactKey);
      out.push({
        contactKey: slashForm(e.contactKey),
        ...(c?.contactName ? { name: c.contactName } : {}),
        channel: e.channel,
        reason: e.status === 'open' ? e.reason : `${e.reason} (${e.status})`,
        sinceMs: e.createdAt,
      });
    }
    return out;
  }

  async health() {
    const { ctx } = this;
    const counts = await ctx.store.countByOwner();
    const budget = ctx.engage.stats().budget;
    const newest = ctx.health.newestMentionAt;
    const dead = await deadEffects(ctx.store);
    return {
      deadEffects: dead,
      ingestionLagMs: ctx.health.lastPollOkAt === undefined ? null : Math.max(0, ctx.now() - ctx.health.lastPollOkAt),
      conversationsByOwner: { bot: counts.bot, agents: counts.agents, paused: counts.paused, unknown: counts.unknown },
      apiBudgetRemaining: budget.remaining,
      ...(budget.resetAtMs !== null ? { apiBudgetResetMs: budget.resetAtMs } : {}),
      ...(ctx.health.lastError ? { lastError: ctx.health.lastError } : {}),
      botPausedForAll: ctx.health.pausedForAll,
      ...(newest !== undefined ? { newestMentionAtMs: newest } : {}),
      ...(ctx.health.pollCalls ? { pollCallsLastHour: ctx.health.pollCalls.lastHour(ctx.now()) } : {}),
      ...(ctx.health.guesses ? { guesses: ctx.health.guesses.snapshot() } : {}),
      ...(ctx.health.shadow ? { shadow: ctx.health.shadow.tally() } : {}),
    };
  }

  /**
   * Hands to people every contact the bot holds whose customer wrote in the last `sinceMs`, each through the
   * ownership state machine (POST handover, audited) with a note on its last mention saying why. The age is
   * measured on the service's clock (its answers' `Date`), as `date.added` is; before any answer, on ours.
   */
  async releaseToAgents(
    o: { sinceMs: number; dryRun: boolean; why: string },
    actor: ControlActor,
  ): Promise<Array<{ contactKey: string; name?: string; lastCustomerAtMs: number; released: boolean; reason?: string }>> {
    const { ctx } = this;
    const from = (serviceNowMs(ctx) ?? ctx.now()) - o.sinceMs;
    // One at a time, keeping the few that match: the bot may hold tens of thousands of (mostly cold) conversations.
    const held: ConversationRecord[] = [];
    await ctx.store.eachConversation({ owner: 'bot' }, (c) => {
      if ((c.lastInboundAt ?? 0) >= from) held.push(c);
    });
    const out = [];
    for (const c of held) {
      const base = {
        contactKey: slashForm(c.key),
        ...(c.contactName ? { name: c.contactName } : {}),
        lastCustomerAtMs: c.lastInboundAt ?? 0,
      };
      if (o.dryRun) {
        out.push({ ...base, released: false });
        continue;
      }
      try {
        const change = await this.events.toAgents(c.key, actorName(actor), o.why);
        if (c.lastMentionId && c.lastMentionTopicId) {
          // The note tells the agent why the bot let go; it is never retried (the service appends notes).
          await ctx.engage.mentions
            .update({ topicId: c.lastMentionTopicId, id: c.lastMentionId }, { actions: [{ type: 'note', extra: o.why }] })
            .catch((err: unknown) => ctx.log.warn({ contact: c.key, err: (err as Error)?.message }, 'release: the note was not added'));
        }
        out.push({ ...base, released: change.to === 'agents' });
      } catch (err) {
        ctx.log.warn({ contact: c.key, err: (err as Error)?.message }, 'release: the handover failed');
        out.push({ ...base, released: false, reason: (err as Error)?.message ?? String(err) });
      }
    }
    return out;
  }

  watchedTopicIds(): Promise<readonly string[]> {
    return this.topicIds();
  }

  /** Slack's "Return to bot" button. */
  async returnToBot(contactKey: string, actor: ControlActor): Promise<void> {
    await this.events.returnToBot(keyOf(contactKey), 'manager', actorName(actor), 'returned from the escalation notice');
  }

  /** Slack's "Mark resolved" button: the customer's mention is resolved and the bot has the contact again. */
  async markResolved(escalationId: string, actor: ControlActor): Promise<void> {
    const e = await this.ctx.store.getEscalation(escalationId);
    if (!e) throw new Error(`there is no escalation ${escalationId}`);
    await this.ctx.engage.mentions.update({ topicId: e.topicId, id: e.mentionId }, { status: 'done' });
    await this.events.returnToBot(e.contactKey, 'resolved', actorName(actor), 'marked resolved from the escalation notice');
    await this.ctx.store.updateEscalation(e.id, { status: 'resolved' });
  }

  private async setPausedForAll(paused: boolean, actor: ControlActor): Promise<{ changed: boolean }> {
    const { ctx } = this;
    if (ctx.health.pausedForAll === paused) return { changed: false };
    ctx.health.pausedForAll = paused;
    const meta = await ctx.store.getMeta();
    await ctx.store.setMeta({ values: { ...meta.values, pausedForAll: paused } });
    await ctx.store.audit({
      at: ctx.now(),
      actor: actorName(actor),
      action: paused ? 'bot paused for all' : 'bot resumed for all',
      subject: 'all',
    });
    if (paused) ctx.notifier.bridgePaused(`${actorName(actor)} paused the bot for every contact`);
    await ctx.store.flush();
    return { changed: true };
  }
}
