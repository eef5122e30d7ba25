/** How often the recently active customer mentions are read again (our clock). */
export const RECHECK_EVERY_MS = 30_000;
/** How long after a contact's latest customer message its mention is still read again (our clock). */
export const RECHECK_FOR_MS = 30 * 60_000;
/** Mentions read again in one pass at most: the delay of a pass over all of them is bounded by the count. */
export const RECHECKS_PER_PASS = 20;
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
    this.byKey.set(m.key, { topicId: m.topicId, id: m.id, key: m.key, addedAt: m.addedAt, seenAtMs: nowMs, checkedAtMs: 0 });
  }

  /** The contact of a watched mention (an account-written mention naming the mention it answers). */
  keyOf(topicId: string, id: string): string | undefined {
    for (const w of this.byKey.values()) if (w.topicId === topicId && w.id === id) return w.key;
    return undefined;
  }

  /** An account-written mention could not be placed: a person may have answered someone; read again at once. */
  hurry(): void {
    this.hurried = true;
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The mentions to read again now (least recently read first), or none when no pass is due. */
  due(nowMs: number): WatchedMention[] {
    if (!this.hurried && nowMs - this.lastPassMs < RECHECK_EVERY_MS && nowMs >= this.lastPassMs) return [];
    this.hurried = false;
    this.lastPassMs = nowMs;
    for (const [key, w] of this.byKey) if (nowMs - w.seenAtMs > RECHECK_FOR_MS) this.byKey.delete(key);
    return [...this.byKey.values()].sort((a, b) => a.checkedAtMs - b.checkedAtMs).slice(0, RECHECKS_PER_PASS);
  }

  checked(w: WatchedMention, nowMs: number): void {
    const known = this.byKey.get(w.key);
    if (known && known.topicId === w.topicId && known.id === w.id) this.byKey.set(w.key, { ...known, checkedAtMs: nowMs });
  }

  private dropIdlest(): void {
    let idlest: WatchedMention | undefined;
    for (const w of this.byKey.values()) if (!idlest || w.seenAtMs < idlest.seenAtMs) idlest = w;
    if (idlest) this.byKey.delete(idlest.key);
  }
}
