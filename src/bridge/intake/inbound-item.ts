import type { Mention } from '../../engage/index.js';
import { contactKey } from '../contact-key.js';

/** What the bridge keeps of an inbound mention until its contact's worker has handled it. */
export type InboundPayload =
  /** A customer wrote (or tapped a quick reply). */
  | {
      readonly kind: 'customer';
      readonly text: string;
      readonly clicked: ReadonlyArray<{ id: string; title: string; payload?: string }>;
      readonly sentiment?: string | number | null;
      /** The mention's language, when the service reports one (the brain prefers it to guessing). */
      readonly language?: string;
      readonly name?: string;
      readonly permalink?: string;
    }
  /** The account wrote to the customer: the bot's own reply coming back, or a person in the service's tool. */
  | { readonly kind: 'account'; readonly text: string; readonly authorName?: string }
  /** A person answered a customer's mention in the service's tool (a `reply` action appeared on it). */
  | { readonly kind: 'agent-action'; readonly userId?: string };

export interface InboundItem {
  readonly id: string;
  readonly topicId: string;
  readonly key: string;
  readonly channel: string;
  /** UNIX seconds, the ordering key. */
  readonly addedAt: number;
  readonly payload: InboundPayload;
}

export interface ClassifyOptions {
  /** Served channels by the `source.service` value that names them. */
  readonly channelBySource: ReadonlyMap<string, string>;
  /** The contact of a customer mention the bridge read recently (see `poller-recheck.ts`). */
  readonly keyOfMention?: (topicId: string, id: string) => string | undefined;
  /** An account-written mention whose conversation cannot be found (no thread, no known reply target). */
  readonly onUnplaced?: (m: Mention) => void;
  /** Whether an author is one of the account's own services: its message is the account's, never a customer's. */
  readonly isOwnService?: (sourceService: string | undefined, authorId: string | undefined) => boolean;
}

const present = (v: unknown): v is string | number => (typeof v === 'string' && v !== '') || typeof v === 'number';

/**
 * The customer an account-written mention answers when it names no thread (`source.thread_id` is optional, "not
 * available for all sources"): its `in_reply_to` (the mention it answers: its author, or its topic and id when the
 * bridge read that mention recently). Read tolerantly: the description does not show the field on inbox mentions.
 */
function replyTargetKey(m: Mention, channel: string, o: ClassifyOptions): string | undefined {
  const target = (m as { in_reply_to?: unknown }).in_reply_to;
  if (present(target)) return o.keyOfMention?.(m.topic_id, String(target));
  if (typeof target !== 'object' || target === null) return undefined;
  const t = target as { id?: unknown; topic_id?: unknown; author?: { id?: unknown; managed?: unknown } | null };
  if (t.author && t.author.managed !== true && present(t.author.id)) return contactKey(channel, String(t.author.id));
  if (present(t.id)) return o.keyOfMention?.(present(t.topic_id) ? String(t.topic_id) : m.topic_id, String(t.id));
  return undefined;
}

/**
 * The customer of an account-written mention by its `source.thread_id`. The description calls it the thread's id:
 * the id of the thread's root mention when the bridge read that mention (a customer's), as some services give it
 * (issue 26); otherwise the customer's id on the channel, as the simulator and the services seen so far give it.
 */
function threadKey(m: Mention, channel: string, o: ClassifyOptions): string | undefined {
  const thread = m.source?.thread_id;
  if (!present(thread)) return undefined;
  return o.keyOfMention?.(m.topic_id, String(thread)) ?? contactKey(channel, String(thread));
}

/** The language field of a mention (on the mention or its message), when the service sends one. */
function mentionLanguage(m: Mention): string | undefined {
  const own = (m as { language?: unknown }).language;
  const msg = (m.message as { language?: unknown } | undefined)?.language;
  const v = typeof own === 'string' && own ? own : msg;
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/**
 * Sorts one mention into what the bridge acts on: customer messages on served channels, messages of the
 * account (ours or a person's), and people's reply actions. Everything else (other channels, public posts,
 * mentions without an author) is ignored.
 */
export function classifyMention(m: Mention, o: ClassifyOptions): InboundItem[] {
  const channel = m.source?.service ? o.channelBySource.get(m.source.service) : undefined;
  if (!channel) return [];
  const addedAt = m.date?.added ?? 0;
  const text = m.message?.content ?? '';
  // Written by the account: flagged so, or (the flag missing: issue 26) by one of the account's own services.
  if (m.author?.managed === true || o.isOwnService?.(m.source?.service, m.author?.id) === true) {
    const key = replyTargetKey(m, channel, o) ?? threadKey(m, channel, o);
    if (key === undefined) {
      // A person may have answered someone: the reply actions on recent customer mentions will tell whom.
      o.onUnplaced?.(m);
      return [];
    }
    return [
      {
        id: m.id,
        topicId: m.topic_id,
        key,
        channel,
        addedAt,
        payload: { kind: 'account', text, ...(m.author?.name ? { authorName: m.author.name } : {}) },
      },
    ];
  }
  const authorId = m.author?.id;
  if (authorId === undefined || authorId === '') return [];
  const key = contactKey(channel, authorId);
  const items: InboundItem[] = [
    {
      id: m.id,
      topicId: m.topic_id,
      key,
      channel,
      addedAt,
      payload: {
        kind: 'customer',
        text,
        clicked: (m.clicked_buttons ?? []).map((b) => ({ id: b.id ?? '', title: b.title, ...(b.payload ? { payload: b.payload } : {}) })),
        sentiment: m.message?.sentiment ?? null,
        ...(mentionLanguage(m) ? { language: mentionLanguage(m) as string } : {}),
        ...(m.author?.name ? { name: m.author.name } : {}),
        ...(m.permalink ? { permalink: m.permalink } : {}),
      },
    },
  ];
  for (const a of m.actions ?? []) {
    if (a.type !== 'reply') continue;
    const at = a.date?.added ?? addedAt;
    items.push({
      id: `${m.id}:reply:${at}:${a.user_id ?? ''}`,
      topicId: m.topic_id,
      key,
      channel,
      addedAt: at,
      payload: { kind: 'agent-action', ...(a.user_id ? { userId: a.user_id } : {}) },
    });
  }
  return items;
}
