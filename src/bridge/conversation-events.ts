import type { BridgeContext } from './bridge-context.js';
import type { KeyedMutex } from './keyed-mutex.js';
import { runBrain, commitDecision } from './run-brain.js';
import type { OwnershipChange } from './ownership/ownership.js';
import type { EscalationFailures } from './effects/outbox-runner.js';
import type { ForgetResult } from '../storage/index.js';
import { forgetDead } from './effects/effect-dead.js';

export type ReturnCause = 'resolved' | 'idle' | 'manager' | 'service';

/**
 * Events that do not come from the inbox: a return to the bot, a manager's choice, opening time. Each runs under
 * the contact's lock, so it never interleaves with the contact's worker.
 */
export class ConversationEvents implements EscalationFailures {
  constructor(
    private readonly ctx: BridgeContext,
    private readonly mutex: KeyedMutex,
  ) {}

  /** People are done: the bot owns the contact again and resumes with a "back with the assistant" turn. */
  returnToBot(key: string, cause: ReturnCause, actor: string, reason: string): Promise<OwnershipChange> {
    return this.mutex.run(key, async () => {
      const { ctx } = this;
      const change = await ctx.ownership.apply(key, { type: 'return', by: cause }, actor, reason);
      if (!change.changed) return change;
      for (const e of await ctx.store.listEscalations({ contactKey: key, status: ['open', 'queued', 'taken'] })) {
        await ctx.store.updateEscalation(e.id, { status: cause === 'resolved' ? 'resolved' : 'returned' });
        ctx.notifier.noticeUpdated(
          e.id,
          cause === 'resolved' ? 'Resolved; the bot has the conversation again.' : `Returned to the bot (${cause}).`,
        );
      }
      ctx.metrics.returnsToBot.inc({ reason: cause });
      const conv = await ctx.store.getConversation(key);
      if (conv) {
        const decision = runBrain(ctx, conv, { kind: 'returned-to-bot', reason: cause }, { name: conv.contactName, tags: [] });
        const target =
          conv.lastMentionId && conv.lastMentionTopicId ? { mentionId: conv.lastMentionId, topicId: conv.lastMentionTopicId } : undefined;
        await commitDecision(ctx, key, `return:${key}:${ctx.now()}`, decision, target, (c) => ({
          ...c,
          transcript: [...c.transcript, { at: ctx.now(), from: 'system', text: `back with the bot (${cause})` }],
        }));
      }
      ctx.wake(key);
      return change;
    });
  }

  /** A manager hands the contact to people (or takes it from the bot). */
  toAgents(key: string, actor: string, reason: string): Promise<OwnershipChange> {
    return this.mutex.run(key, async () => {
      const { ctx } = this;
      const change = await ctx.ownership.apply(key, { type: 'manager-to-agents' }, actor, reason);
      const conv = await ctx.store.getConversation(key);
      if (change.changed && conv) {
        const decision = runBrain(ctx, conv, { kind: 'agent-took-over' }, { name: conv.contactName, tags: [] });
        await commitDecision(ctx, key, `manager:${key}:${ctx.now()}`, decision, undefined, (c) => c);
      }
      // The decision's state was recorded with its effects (a return that follows at once decides from it):
      // the worker performs them.
      ctx.wake(key);
      return change;
    });
  }

  /**
   * A manager's `forget`: the store's records, and the contact's entries in the list of parked effects `status` shows,
   * under the contact's lock, so no turn of the contact's worker writes it back half-way.
   */
  forget(key: string, dryRun: boolean): Promise<ForgetResult & { deadListed: number }> {
    return this.mutex.run(key, async () => {
      const deadListed = await forgetDead(this.ctx.store, key, dryRun);
      const result = await this.ctx.store.forgetContact(key, { dryRun });
      return { ...result, known: result.known || deadListed > 0, deadListed };
    });
  }

  pause(key: string, actor: string): Promise<OwnershipChange> {
    return this.mutex.run(key, () => this.ctx.ownership.apply(key, { type: 'pause' }, actor, 'bot paused by a manager'));
  }

  resume(key: string, actor: string): Promise<OwnershipChange> {
    return this.mutex.run(key, async () => {
      const change = await this.ctx.ownership.apply(key, { type: 'resume' }, actor, 'bot resumed by a manager');
      if (change.changed) await this.ctx.ownership.confirm(key, actor, 'resumed: ask the service who owns it');
      this.ctx.wake(key);
      return { ...change, to: await this.ctx.ownership.current(key) };
    });
  }

  /** Opening time: a queued escalation goes to the people now. */
  releaseQueued(key: string, escalationId: string): Promise<void> {
    return this.mutex.run(key, async () => {
      const { ctx } = this;
      const conv = await ctx.store.getConversation(key);
      if (!conv) return;
      const decision = runBrain(ctx, conv, { kind: 'opening-time' }, { name: conv.contactName, tags: [] });
      const target =
        conv.lastMentionId && conv.lastMentionTopicId ? { mentionId: conv.lastMentionId, topicId: conv.lastMentionTopicId } : undefined;
      await commitDecision(ctx, key, `open:${escalationId}`, decision, target, (c) => c);
      if (!decision.actions.some((a) => a.type === 'escalate')) {
        await ctx.store.updateEscalation(escalationId, { status: 'cancelled' });
      }
      ctx.wake(key);
    });
  }

  /**
   * Called from inside the contact's worker (lock already held): a reply was given up because, after a crash or an
   * unanswered call, nobody could tell whether it had gone out. Rather than risk sending it twice, people take the
   * contact, with a note on the customer's message saying why.
   */
  async replyInDoubt(key: string, why: string): Promise<void> {
    const { ctx } = this;
    const conv = await ctx.store.getConversation(key);
    await ctx.ownership.apply(key, { type: 'escalate' }, 'bridge', `a reply may or may not have reached the customer: ${why}`);
    if (!conv?.lastMentionId || !conv.lastMentionTopicId) return;
    const extra =
      'engage-bridge: the bot could not tell whether its last reply reached the customer (a restart or an unanswered call); rather than risk sending it twice, the conversation is handed to people.';
    try {
      await ctx.engage.mentions.update(
        { topicId: conv.lastMentionTopicId, id: conv.lastMentionId },
        { actions: [{ type: 'note', extra }] },
      );
    } catch (err) {
      ctx.log.warn({ contact: key, err: (err as Error)?.message }, 'could not leave people a note on the mention');
    }
  }

  /** Called from inside the contact's worker (lock already held): the handover failed for good. */
  async escalationFailed(key: string, why: string): Promise<void> {
    const { ctx } = this;
    const conv = await ctx.store.getConversation(key);
    if (!conv) return;
    for (const e of await ctx.store.listEscalations({ contactKey: key, status: ['open', 'queued'] })) {
      await ctx.store.updateEscalation(e.id, { status: 'cancelled' });
    }
    const decision = runBrain(ctx, conv, { kind: 'escalation-failed', error: why }, { name: conv.contactName, tags: [] });
    const target =
      conv.lastMentionId && conv.lastMentionTopicId ? { mentionId: conv.lastMentionId, topicId: conv.lastMentionTopicId } : undefined;
    await commitDecision(ctx, key, `failed:${key}:${ctx.now()}`, decision, target, (c) => c);
    ctx.wake(key);
  }
}
