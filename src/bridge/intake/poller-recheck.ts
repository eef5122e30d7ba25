import { AuthError, type Mention, NotFoundError } from '../../engage/index.js';
import { mentionRef } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';

/** How often the recently active customer mentions are read again (our clock). */
export const RECHECK_EVERY_MS = 30_000;
/** How long after a contact's latest customer message its mention is still read again (our clock). */
export const RECHECK_FOR_MS = 30 * 60_000;
/** Mentions read again in one pass at most: the delay of a pass over all of them is bounded by the count. */
export const RECHECKS_PER_PASS = 20;
/**
 * Re-reads per pass within a configured hourly budget: at most a quarter of it (polls take at most half), so
 * replies keep their room (but at least one per pass); RECHECKS_PER_PASS when no budget is configured.
 */
export function rechecksPerPass(budgetPerHour: number): number {
  if (budgetPerHour <= 0) return RECHECKS_PER_PASS;
  const passesPerHour = 3_600_000 / RECHECK_EVERY_MS;
  return Math.max(1, Math.min(RECHECKS_PER_PASS, Math.floor((budgetPerHour * 0.25) / passesPerHour)));
}

/** Contacts watched at most; the one idle longest makes room. */
export const MAX_WATCHED = 2_000;

export interface WatchedMention {
  readonly topicId: string;
  readonly id: string;
  /** The conversation key of the customer who wrote it. */
  readonly key: string;
  /** The service's `date.added` (only compared with other mentions' dates). */
  readonly addedAt: number;
  /** When the bridge last saw the contact write (our clock). */
  readonly seenAtMs: number;
  /** When it was last read again (our clock; 0: never). */
  readonly checkedAtMs: number;
}

/**
 * A person's reply in the service's tool shows as a `reply` action added to the customer's mention, which may be
 * older than any poll window reaches: each contact's latest customer mention is read again by id, every
 * RECHECK_EVERY_MS (sooner when an account-written mention could not be placed), for RECHECK_FOR_MS after the
 * customer last wrote. Only our clock is used here; the service's dates only order one contact's mentions.
 */
export class MentionRecheck {
  private readonly byKey = new Map<string, WatchedMention>();
  /** The watched mentions' contacts by topic and id: `keyOf` runs for every account-written mention read (issue 28). */
  private readonly keyByRef = new Map<string, string>();
  private lastPassMs = Number.NEGATIVE_INFINITY;
  private hurried = false;

  /** The customer's mention was read (new or again): it becomes the contact's watched one when it is the latest. */
  watch(m: { topicId: string; id: string; key: string; addedAt: number }, nowMs: number): void {
    const known = this.byKey.get(m.key);
    if (known && (known.addedAt > m.addedAt || (known.topicId === m.topicId && known.id === m.id))) {
      if (known.topicId === m.topicId && known.id === m.id) this.byKey.set(m.key, { ...known, seenAtMs: Math.max(known.seenAtMs, nowMs) });
      return;
    }
    if (!known && this.byKey.size >= MAX_WATCHED) this.dropIdlest();
    if (known) this.keyByRef.delete(mentionRef(known.topicId, known.id));
    this.byKey.set(m.key, { topicId: m.topicId, id: m.id, key: m.key, addedAt: m.addedAt, seenAtMs: nowMs, checkedAtMs: 0 });
    this.keyByRef.set(mentionRef(m.topicId, m.id), m.key);
  }

  /** The contact of a watched mention (an account-written mention naming the mention it answers). */
  keyOf(topicId: string, id: string): string | undefined {
    return this.keyByRef.get(mentionRef(topicId, id));
  }

  /** An account-written mention could not be placed: a person may have answered someone; read again at once. */
  hurry(): void {
    this.hurried = true;
  }

  forget(key: string): void {
    const known = this.byKey.get(key);
    if (known) this.keyByRef.delete(mentionRef(known.topicId, known.id));
    this.byKey.delete(key);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The mentions to read again now (least recently read first, at most `limit`), or none when no pass is due. */
  due(nowMs: number, limit = RECHECKS_PER_PASS): WatchedMention[] {
    if (!this.hurried && nowMs - this.lastPassMs < RECHECK_EVERY_MS && nowMs >= this.lastPassMs) return [];
    this.hurried = false;
    this.lastPassMs = nowMs;
    for (const [key, w] of this.byKey) if (nowMs - w.seenAtMs > RECHECK_FOR_MS) this.forget(key);
    return [...this.byKey.values()].sort((a, b) => a.checkedAtMs - b.checkedAtMs).slice(0, limit);
  }

  checked(w: WatchedMention, nowMs: number): void {
    const known = this.byKey.get(w.key);
    if (known && known.topicId === w.topicId && known.id === w.id) this.byKey.set(w.key, { ...known, checkedAtMs: nowMs });
  }

  private dropIdlest(): void {
    let idlest: WatchedMention | undefined;
    for (const w of this.byKey.values()) if (!idlest || w.seenAtMs < idlest.seenAtMs) idlest = w;
    if (idlest) this.forget(idlest.key);
  }
}

/**
 * Reads the watched customer mentions again by id (a bounded number per pass, when a pass is due): a reply action
 * a person added to one of them is recorded like any other. One failed read is logged and skipped. The reads of a
 * pass go out together: the pass is part of a poll, and at 100 ms a call 20 reads in a row held the next poll (and
 * every customer message it would read) back 2 s each pass. The calls are the same and stay within the budget.
 */
export async function recheckRecent(
  ctx: Pick<BridgeContext, 'engage' | 'now' | 'log' | 'settings' | 'store'>,
  recheck: MentionRecheck,
  o: { count: () => void; ingest: (m: Mention) => Promise<number> },
): Promise<number> {
  const due = recheck.due(ctx.now(), rechecksPerPass(ctx.settings.rateLimitPerHour ?? 0));
  // Every read ends before the pass does, even when one throws (a refused token): none writes after the poll gave up.
  const outcomes = await Promise.allSettled(due.map((w) => readAgain(ctx, recheck, o, w)));
  const refused = outcomes.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (refused) throw refused.reason;
  return outcomes.reduce((sum, r) => sum + (r.status === 'fulfilled' ? r.value : 0), 0);
}

async function readAgain(
  ctx: Pick<BridgeContext, 'engage' | 'now' | 'log' | 'store'>,
  recheck: MentionRecheck,
  o: { count: () => void; ingest: (m: Mention) => Promise<number> },
  w: WatchedMention,
): Promise<number> {
  // Only a conversation the bot may speak in needs a takeover seen: people's or paused ones cost no call.
  const owner = (await ctx.store.getConversation(w.key))?.owner;
  if (owner === 'agents' || owner === 'paused') {
    recheck.checked(w, ctx.now());
    return 0;
  }
  let mention: Mention;
  try {
    o.count();
    mention = await ctx.engage.mentions.get({ topicId: w.topicId, id: w.id });
  } catch (err) {
    if (err instanceof AuthError) throw err;
    if (err instanceof NotFoundError) recheck.forget(w.key);
    else recheck.checked(w, ctx.now());
    ctx.log.warn({ topicId: w.topicId, mentionId: w.id, err: (err as Error)?.message }, 'could not read a recent mention again');
    return 0;
  }
  recheck.checked(w, ctx.now());
  return o.ingest(mention);
}

/** After a restart: the latest customer mention of each conversation the bot spoke in recently is watched again. */
export async function watchRecentConversations(ctx: Pick<BridgeContext, 'store' | 'now'>, recheck: MentionRecheck): Promise<void> {
  // Only the recently updated ones are read, no more than can be watched (the newest: the others would make room
  // for them anyway), and one at a time: at start, tens of thousands of stored conversations must not be loaded.
  await ctx.store.eachConversation({ owner: 'bot', updatedSince: ctx.now() - RECHECK_FOR_MS, newest: MAX_WATCHED }, (c) => {
    if (!c.lastMentionId || !c.lastMentionTopicId || ctx.now() - c.updatedAt > RECHECK_FOR_MS) return;
    recheck.watch({ topicId: c.lastMentionTopicId, id: c.lastMentionId, key: c.key, addedAt: (c.lastInboundAt ?? 0) / 1000 }, c.updatedAt);
  });
}
