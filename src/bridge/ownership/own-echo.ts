import type { ConversationRecord } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';

/** Where the bot's own Engage user is kept once the service has named it (store meta survives restarts). */
const BOT_USER_META = 'botUser';

export interface BotUser {
  readonly id: string;
  readonly name?: string;
}

export async function knownBotUser(ctx: Pick<BridgeContext, 'store'>): Promise<BotUser | undefined> {
  const value = (await ctx.store.getMeta()).values[BOT_USER_META];
  if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string') return undefined;
  return value as BotUser;
}

/**
 * Learns the user the bot publishes as from what publisher/add returned (the publisher mention's `user_id`), and
 * that user's name (one GET, once): an account-written mention by that user is the bot's own message. Never
 * fails (without it, echoes are matched by the bot's unmatched lines instead) and need not be awaited: the reply
 * path goes on at once, and a contact's run ends only once the reads it started are done (`botUserSettled`).
 */
export function learnBotUser(ctx: Pick<BridgeContext, 'store' | 'engage' | 'log'>, publisherMention: unknown): Promise<void> {
  const raw = publisherMention && typeof publisherMention === 'object' ? (publisherMention as { user_id?: unknown }).user_id : undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') return Promise.resolve();
  const id = String(raw);
  // Every reply names the user: once it is learnt (with its name) for this store, the next ones need no store read.
  if (learntUsers.get(ctx.store) === id) return Promise.resolve();
  // The first replies of a burst all name the same user before any has learnt it: they share one GET.
  const under = learning.get(ctx.store) ?? new Map<string, Promise<void>>();
  learning.set(ctx.store, under);
  const same = under.get(id);
  if (same) return same;
  const learnt = learnIfNew(ctx, id).finally(() => under.delete(id));
  under.set(id, learnt);
  return learnt;
}

/** Resolves when the reads of the bot's user under way now (for this store) are done; later ones are not waited for. */
export async function botUserSettled(ctx: Pick<BridgeContext, 'store'>): Promise<void> {
  await Promise.all(learning.get(ctx.store)?.values() ?? []);
}

/** Reads of the bot's user under way, per store (one bridge, one store) and user id. */
const learning = new WeakMap<object, Map<string, Promise<void>>>();
/** The user learnt, with its name, per store. */
const learntUsers = new WeakMap<object, string>();

async function learnIfNew(ctx: Pick<BridgeContext, 'store' | 'engage' | 'log'>, id: string): Promise<void> {
  try {
    const known = await knownBotUser(ctx);
    if (known?.id === id && known.name !== undefined) {
      learntUsers.set(ctx.store, id);
      return;
    }
    const user = await ctx.engage.users.get(id);
    const name = typeof user.name === 'string' && user.name !== '' ? user.name : undefined;
    await ctx.store.setMeta({ values: { [BOT_USER_META]: { id, ...(name ? { name } : {}) } } });
    if (name) learntUsers.set(ctx.store, id);
    ctx.log.info({ user: id }, 'the bot publishes as this Engage user: its messages are recognised as the bot’s own');
  } catch (err) {
    ctx.log.warn({ user: id, err: (err as Error)?.message }, 'could not read the bot’s own Engage user; tried again on the next reply');
  }
}

/** What the service says of an account-written mention of this conversation. */
export interface AccountMessage {
  readonly text: string;
  readonly authorName?: string;
}

/** Whether the service's author name says the bot wrote it; undefined while either name is unknown. */
export function ownByAuthorName(bot: BotUser | undefined, authorName: string | undefined): boolean | undefined {
  if (bot?.name === undefined || authorName === undefined) return undefined;
  return authorName === bot.name;
}

/**
 * Is this account-written mention the bot's own message coming back? Decided by who wrote it (the bot's own
 * user, as the service names it), never by how long ago the bot spoke: a reply published late (an outage, a
 * restart) is still the bot's. `lineIndex` is the bot line it belongs to (bookkeeping only), or -1.
 */
export async function recogniseOwnEcho(
  ctx: Pick<BridgeContext, 'store'>,
  conv: ConversationRecord,
  m: AccountMessage,
): Promise<{ own: boolean; lineIndex: number }> {
  const lineIndex = conv.transcript.findIndex((l) => l.from === 'bot' && l.mentionId === undefined && l.text === m.text);
  const byName = ownByAuthorName(await knownBotUser(ctx), m.authorName);
  if (byName !== undefined) return { own: byName, lineIndex };
  // The service has not named the bot's user (or the mention names no author): an unmatched bot line with this
  // text is the only trace left; no time window, so a late echo is still the bot's.
  return { own: lineIndex >= 0, lineIndex };
}
