import { EngageError } from '../engage/index.js';
import { mayGuessLanguage } from '../bot/index.js';
import { mentionRef, type ConversationRecord, type InboundMention, type TranscriptLine } from '../storage/index.js';
import type { BridgeContext } from './bridge-context.js';
import type { InboundPayload } from './intake/inbound-item.js';
import { runPendingEffects, type EscalationFailures } from './effects/outbox-runner.js';
import { runBrain, commitDecision, decidedKey } from './run-brain.js';
import { splitKey } from './contact-key.js';
import type { KeyedMutex } from './keyed-mutex.js';
import { ContactTags } from './contact-tags.js';
import { botUserSettled, knownBotUser, recogniseOwnEcho } from './ownership/own-echo.js';
import { isPermanentFailure, parkDeadMention } from './effects/mention-dead.js';
import { isLate } from './service-time.js';
import type { RestartGap } from './intake/restart-gap.js';

/** Mentions of one contact decided before their effects are performed together. */
const BATCH_LIMIT = 20;
/** Tries of a mention whose failure is not the service's (a bug, an odd item) before it is parked as dead. */
export const MAX_UNCLASSIFIED_TRIES = 5;

/**
 * What the decisions of one round share. No decision state: each decision is recorded whole in the store at once
 * (`commitDecision`), so the next one reads the state it left from the conversation.
 */
interface Batch {
  /**
   * The owner was confirmed with the service during this round: no second GET for a mention of `startedWith`.
   */
  ownerConfirmed?: boolean;
  /**
   * The mentions (`mentionRef`) waiting when the round began: the owner check's answer is newer than each of them. A
   * mention recorded later (during a slow call) may have been written after that answer: it is checked again.
   */
  startedWith: ReadonlySet<string>;
  /** The mentions taken in this round so far (decided, parked or left to people), by `mentionRef`. */
  taken: Set<string>;
  /**
   * Set by a customer's mention that found, once its awaits were over, an earlier one (or people's activity) recorded
   * meanwhile: it was not decided, and the round takes the earlier one first.
   */
  overtaken?: boolean;
  /**
   * The contact's waiting mentions as last read (at the round's start, or by a customer's mention once its awaits
   * were over): the next pick takes from this read instead of reading again (issue 28: the store's list of a
   * contact's waiting mentions was read two or three times per decision). Using a read a moment old is the same as a
   * mention recorded meanwhile arriving a moment later: it is taken by a later read (the next customer mention's
   * own check, the next pick, or the read after the round's effects, which wakes the contact).
   */
  lastRead?: InboundMention[];
}

/**
 * What people did is taken in before the customer messages waiting beside it: a customer message that arrived
 * just before an agent's reply must not get a bot answer sent after that reply (never talk over an agent).
 */
function humanActivityFirst(items: InboundMention[]): InboundMention[] {
  const human = items.filter((i) => (i.payload as InboundPayload).kind !== 'customer');
  return human.length === 0 ? items : [...human, ...items.filter((i) => (i.payload as InboundPayload).kind === 'customer')];
}

/** The transcript line of this mention: same id, and same topic when the line names one. */
function isLineOf(l: TranscriptLine, item: { id: string; topicId: string }): boolean {
  return l.mentionId === item.id && (l.topicId === undefined || l.topicId === item.topicId);
}

function blank(key: string, now: number): ConversationRecord {
  const { channel, serviceId } = splitKey(key);
  return { key, channel, serviceId, owner: 'unknown', transcript: [], updatedAt: now };
}

/**
 * The work of one contact, run by the dispatcher one contact at a time: first the effects still pending,
 * then every recorded inbound mention in order, each decided once and its effects performed before the next.
 */
export class ConversationWorker {
  private readonly tags: ContactTags;
  /** Failed tries per mention in this process, for the ones that failed and are not parked yet. */
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly ctx: BridgeContext,
    private readonly mutex: KeyedMutex,
    /** Told when a handover failed for good (`ConversationEvents`); called with the contact's lock held. */
    private readonly escalations: EscalationFailures,
    /** After a restart: mentions the poll has not read up to yet wait (`restart-gap.ts`). */
    private readonly gap?: Pick<RestartGap, 'mayDecide'>,
  ) {
    this.tags = new ContactTags(ctx);
  }

  /**
   * One run for a contact: leftover effects first; then every waiting mention is decided in order (each decision
   * starting from the state the previous one left in the store), all decisions are made durable in one write, and
   * only then are their effects performed, in order.
   */
  async work(key: string): Promise<void> {
    await this.mutex.run(key, async () => {
      try {
        await this.round(key);
      } finally {
        // A reply goes on without waiting for the read of the bot's user it started; the run does not end before it.
        await botUserSettled(this.ctx);
      }
    });
  }

  /**
   * One round: leftover effects, then up to BATCH_LIMIT waiting mentions decided and performed. A contact with more
   * waiting goes to the back of the queue, so one that keeps writing never holds its slot while others wait.
   */
  private async round(key: string): Promise<void> {
    if (!(await runPendingEffects(this.ctx, key, this.escalations))) return;
    const waiting = await this.ready(key);
    const batch: Batch = { taken: new Set(), startedWith: new Set(waiting.map((m) => mentionRef(m.topicId, m.id))), lastRead: waiting };
    const items: InboundMention[] = [];
    // The waiting mentions are read again before each decision, not once per round: a decision may wait seconds on
    // the service, and a message the customer wrote earlier may be recorded meanwhile (after a restart the webhook
    // brings the newest first, the poll the older ones a moment later). It is decided before the later ones.
    let decided = false;
    let drained = false;
    try {
      // Bounded: a mention overtaken again and again gives way at most BATCH_LIMIT times in a round.
      for (let tries = 0; items.length < BATCH_LIMIT && tries < 2 * BATCH_LIMIT; tries += 1) {
        const next = await this.nextWaiting(key, batch);
        if (!next) {
          drained = true;
          break;
        }
        decided = true;
        batch.overtaken = false;
        await this.handleOrPark(next, batch);
        if (batch.overtaken) continue;
        batch.taken.add(mentionRef(next.topicId, next.id));
        items.push(next);
      }
    } finally {
      // The decisions were recorded in memory only: on disk before any of their effects is performed, now or later.
      if (decided) await this.ctx.store.flush();
    }
    if (items.length > 0) {
      if (!(await runPendingEffects(this.ctx, key, this.escalations, true))) return;
      for (const item of items) await this.ctx.store.markInboundProcessed(item.topicId, item.id);
      // Cut short by its bounds, the round may leave mentions waiting: the contact goes to the back of the queue.
      // Drained, it leaves only mentions recorded since its last read, and each of those scheduled the contact when it
      // was recorded (ingest), which the dispatcher runs once more after this run: nothing to read (issue 28).
      if (!drained && (await this.ready(key)).length > 0) this.ctx.wake(key);
    }
    this.ctx.metrics.outboxPending.set(this.ctx.store.stats().pendingEffects);
  }

  /**
   * The mention to decide next: people's activity first, then the customer's oldest, among those not taken yet. From
   * the batch's last read when it has one (taken once), else read now; `fresh`: read now in any case (and kept as
   * the batch's last read, for the next pick).
   */
  private async nextWaiting(key: string, batch: Batch, fresh = false): Promise<InboundMention | undefined> {
    const read = (!fresh && batch.lastRead) || (await this.ready(key));
    batch.lastRead = fresh ? read : undefined;
    const waiting = read.filter((m) => !batch.taken.has(mentionRef(m.topicId, m.id)));
    return humanActivityFirst(waiting)[0];
  }

  /**
   * The contact's waiting mentions that may be decided now, oldest first: after a restart, a customer's message the
   * poll has not read up to yet waits with every customer message after it (`restart-gap.ts`). People's activity
   * never waits: the bot must know of an agent's reply before it decides what came after it.
   */
  private async ready(key: string): Promise<InboundMention[]> {
    const waiting = await this.ctx.store.pendingInbound(key);
    const gap = this.gap;
    if (!gap) return waiting;
    let holding = false;
    return waiting.filter((m) => {
      if ((m.payload as InboundPayload).kind !== 'customer') return true;
      holding ||= !gap.mayDecide(key, m.topicId, m.addedAt);
      return !holding;
    });
  }

  /**
   * A permanent failure (the contact is gone, the service refuses the request) parks this one mention as dead and
   * the run goes on; anything else is thrown, and the dispatcher retries the contact later with a growing delay.
   */
  private async handleOrPark(item: InboundMention, batch: Batch): Promise<void> {
    const ref = mentionRef(item.topicId, item.id);
    try {
      await this.handle(item, batch);
      this.failures.delete(ref);
    } catch (err) {
      // A failure the bridge cannot classify (a bug, an odd item) hardly mends by itself: a few tries, then parked.
      // The service's transient failures (5xx, no answer, rate limits) are retried, later and later, not parked.
      const tries = (this.failures.get(ref) ?? 0) + 1;
      if (!isPermanentFailure(err) && (err instanceof EngageError || tries < MAX_UNCLASSIFIED_TRIES)) {
        this.failures.set(ref, tries);
        throw err;
      }
      this.failures.delete(ref);
      await parkDeadMention(this.ctx, item, err);
    }
  }

  private async handle(item: InboundMention, batch: Batch): Promise<void> {
    const payload = item.payload as InboundPayload;
    if (payload.kind === 'customer') return this.onCustomer(item, payload, batch);
    if (payload.kind === 'account') return this.onAccountMessage(item, payload);
    return this.onHumanActivity(item.key, item.addedAt * 1000, undefined);
  }

  private async onCustomer(item: InboundMention, p: Extract<InboundPayload, { kind: 'customer' }>, batch: Batch): Promise<void> {
    const { ctx } = this;
    const key = item.key;
    // Effect keys name the topic too: two topics may use the same mention id.
    const ref = mentionRef(item.topicId, item.id);
    if (await ctx.store.getEffect(decidedKey(ref))) return; // decided before a restart: only effects remain
    ctx.metrics.inboundMessages.inc({ channel: splitKey(key).channel });
    let conv = (await ctx.store.getConversation(key)) ?? (await ctx.store.saveConversation(blank(key, ctx.now())));
    // People may hand the contact back in the service tool without a word to us, at any moment: by default that belief
    // is not trusted past the round that confirmed it (a customer who writes right after a hand-back is answered).
    const trustMs =
      conv.owner === 'agents'
        ? Math.min(ctx.settings.agentsReconfirmAgeMs ?? 0, ctx.settings.ownerConfirmAgeMs)
        : ctx.settings.ownerConfirmAgeMs;
    // A person's activity read late (a backlog, a restart) is no news about the time the customer wrote: when the
    // message came well after it on the service's clock, people may have handed the contact back meanwhile.
    const writtenAfterPeople =
      conv.owner === 'agents' && conv.lastHumanActivityAt !== undefined && item.addedAt * 1000 - conv.lastHumanActivityAt > trustMs;
    const stale =
      !(batch.ownerConfirmed && batch.startedWith.has(ref)) && (writtenAfterPeople || ctx.now() - (conv.ownerConfirmedAt ?? 0) > trustMs);
    const confirming = conv.owner !== 'paused' && (conv.owner === 'unknown' || stale);
    // A new dialog wants the contact's facts, and only the owner check stands before them: both are read at once,
    // so a first message waits for one round trip less (the facts are cached and never fail, so an unused read costs
    // one call and nothing else).
    const earlyFacts = confirming && conv.dialog === undefined && !ctx.health.pausedForAll ? this.tags.facts(key, item.topicId) : undefined;
    if (confirming) {
      // So is the list of services to reply from, when none is cached yet (the first contact of a topic).
      ctx.performerDeps.replyServices.prefetch(splitKey(key).channel, { topicId: item.topicId, mentionId: item.id });
      await ctx.ownership.confirm(key, 'bridge', 'a customer wrote', () => noteNoHandover(ctx, item));
      batch.ownerConfirmed = true;
      conv = (await ctx.store.getConversation(key)) ?? conv;
    }
    const shown = p.text || p.clicked.map((b) => b.title).join(', ');
    const line = { at: item.addedAt * 1000, from: 'customer' as const, text: shown, mentionId: item.id, topicId: item.topicId };
    const patch = (c: ConversationRecord): ConversationRecord => ({
      ...c,
      // Idempotent: a decision lost in a crash is taken again, without a second copy of the line.
      transcript: c.transcript.some((l) => isLineOf(l, item)) ? c.transcript : [...c.transcript, line],
      lastInboundAt: item.addedAt * 1000,
      lastMentionId: item.id,
      lastMentionTopicId: item.topicId,
      ...(p.name ? { contactName: p.name } : {}),
    });
    if (conv.owner === 'paused' || ctx.health.pausedForAll) {
      // The bot is stopped for this contact: keep the message for the people, decide nothing (and never again).
      await ctx.store.recordDecision(
        {
          contactKey: key,
          decidedKey: decidedKey(ref),
          update: (c) => (c ? { ...patch(c), updatedAt: ctx.now() } : undefined),
          effects: [],
        },
        { wait: 'applied' },
      );
      return;
    }
    const facts =
      conv.owner === 'bot' && conv.dialog === undefined ? await (earlyFacts ?? this.tags.facts(key, item.topicId)) : { tags: [] };
    // Only while the bot speaks: a person's conversation needs no reading.
    const reader = conv.owner === 'bot' && p.text.trim() && p.clicked.length === 0 ? await ctx.understanding() : undefined;
    const nlu = reader ? await reader.parse(p.text) : undefined;
    // Loaded as the bridge starts (create-bridge.ts); a command-only bridge loads it here, at the first message.
    const languageGuesser = mayGuessLanguage(ctx.flows) ? await ctx.languageGuesser() : undefined;
    // The awaits above may have taken seconds: what was recorded meanwhile and comes first is decided first.
    if ((await this.nextWaiting(key, batch, true))?.id !== item.id) {
      batch.overtaken = true;
      return;
    }
    const decision = runBrain(
      ctx,
      patch(conv),
      {
        kind: 'message',
        mentionId: item.id,
        text: p.text,
        clicked: p.clicked.map((b) => ({ ...b })),
        sentiment: p.sentiment ?? null,
        ...(p.language ? { language: p.language } : {}),
        ...(nlu ? { nlu } : {}),
        ...(isLate(ctx, item.addedAt * 1000) ? { late: true } : {}),
      },
      { name: p.name ?? conv.contactName, tags: facts.tags, ...(facts.attributes ? { attributes: facts.attributes } : {}) },
      languageGuesser,
    );
    await commitDecision(
      ctx,
      key,
      ref,
      decision,
      { mentionId: item.id, topicId: item.topicId },
      patch,
      {
        ...(p.permalink ? { permalink: p.permalink } : {}),
        ...((p.name ?? conv.contactName) ? { customerName: (p.name ?? conv.contactName) as string } : {}),
      },
      'applied',
    );
  }

  /** The account wrote to the customer: the bot's own reply coming back, or a person in the service's tool. */
  private async onAccountMessage(item: InboundMention, p: Extract<InboundPayload, { kind: 'account' }>): Promise<void> {
    const { ctx } = this;
    // A person writing first to a contact the bot never talked to: record it, so the bot will not claim them.
    const conv = (await ctx.store.getConversation(item.key)) ?? (await ctx.store.saveConversation(blank(item.key, ctx.now())));
    const at = item.addedAt * 1000;
    const echo = await recogniseOwnEcho(ctx, conv, p);
    if (echo.own) {
      if (echo.lineIndex >= 0) {
        await ctx.store.updateConversation(item.key, (c) =>
          c
            ? {
                ...c,
                transcript: c.transcript.map((l, i) => (i === echo.lineIndex ? { ...l, mentionId: item.id, topicId: item.topicId } : l)),
              }
            : undefined,
        );
      }
      return;
    }
    if (!(await positivelyAPerson(ctx, p.authorName))) {
      // Not the bot's by its name or text, but not surely a person's either (the service may name the stream, not
      // the user, on every message the account publishes: issue 26): the described signal decides, never a POST.
      ctx.health.guesses?.notHeld(
        'own-echo-author',
        "a message of the account names no person (the stream's name, or none): the handover item decides who holds the contact",
        { contact: item.key },
      );
      await ctx.ownership.confirm(item.key, 'bridge', 'the account wrote; who holds the contact is read, not assumed');
      return;
    }
    await ctx.store.updateConversation(item.key, (c) =>
      c
        ? { ...c, transcript: [...c.transcript, { at, from: 'agent', text: p.text, mentionId: item.id, topicId: item.topicId }] }
        : undefined,
    );
    await this.onHumanActivity(item.key, at, p.authorName);
  }

  /** A person acted: the bot steps aside at once (implicit takeover) and the idle clock restarts. */
  async onHumanActivity(key: string, atMs: number, who: string | undefined): Promise<void> {
    const { ctx } = this;
    const conv = await ctx.store.getConversation(key);
    if (!conv) return;
    await ctx.store.updateConversation(key, (c) =>
      c ? { ...c, lastHumanActivityAt: Math.max(c.lastHumanActivityAt ?? 0, atMs), updatedAt: ctx.now() } : undefined,
    );
    const change = await ctx.ownership.apply(
      key,
      { type: 'human-activity', atMs },
      who ? `agent:${who}` : 'agent',
      'a person answered the customer',
    );
    for (const e of await ctx.store.listEscalations({ contactKey: key, status: ['open', 'queued'] })) {
      await ctx.store.updateEscalation(e.id, { status: 'taken' });
      ctx.notifier.noticeUpdated(e.id, `${who ?? 'An agent'} took the conversation.`);
    }
    if (change.changed || conv.owner === 'agents') {
      const fresh = (await ctx.store.getConversation(key)) ?? conv;
      const decision = runBrain(ctx, fresh, { kind: 'agent-took-over' }, { name: fresh.contactName, tags: [] });
      // Named by contact too: another contact's takeover in the same second is another decision.
      await commitDecision(ctx, key, `takeover:${key}:${atMs}`, decision, undefined, (c) => c, {}, 'applied');
    }
  }
}

/**
 * An account-written message not recognised as the bot's is a person's only when its author is named, and named
 * neither as the bot's user nor as one of the account's streams (services GET publisher/add listed).
 */
async function positivelyAPerson(ctx: BridgeContext, authorName: string | undefined): Promise<boolean> {
  if (authorName === undefined || authorName.trim() === '') return false;
  if (ctx.performerDeps.replyServices.isStreamName(authorName)) return false;
  const bot = await knownBotUser(ctx);
  return bot?.name === undefined || bot.name !== authorName;
}

/** People see why the bot left this message to them: the service has no handover item for the contact. */
async function noteNoHandover(ctx: BridgeContext, item: InboundMention): Promise<void> {
  const extra =
    'engage-bridge: the service answers 404 for this contact’s handover, so the bot did not take the conversation; it is left with people.';
  try {
    await ctx.engage.mentions.update({ topicId: item.topicId, id: item.id }, { actions: [{ type: 'note', extra }] });
  } catch (err) {
    ctx.log.warn({ contact: item.key, err: (err as Error)?.message }, 'could not leave people a note on the mention');
  }
}
