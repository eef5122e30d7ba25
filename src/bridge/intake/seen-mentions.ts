import { mentionRef, type Store } from '../../storage/index.js';

/** Recorded mentions remembered: 20,000 is minutes of heavy traffic (a reply's echo counts too), ~2 MB. */
export const SEEN_REMEMBERED = 20_000;

/**
 * Whether the store has recorded a mention, with the recent answers "yes" remembered: every poll reads its overlap
 * again (each mention about six times at 1 s polls, and the bot's reply echoes as often), and each of those reads
 * asked the store, a query per item (issue 28: 0.23 ms per answer of a polling burst). A recorded mention stays
 * recorded for longer than any poll reaches back (its seen id is pruned only days later), so a "yes" keeps; only
 * what the store has made durable is remembered (a record the caller waited for: a write rolled back never
 * counts). "No" is never remembered: the store is asked again. Bounded: the oldest go first.
 */
export class SeenMentions {
  private readonly refs = new Set<string>();

  constructor(
    private readonly store: Pick<Store, 'hasSeen'>,
    private readonly max = SEEN_REMEMBERED,
  ) {}

  /**
   * Whether the mention is recorded: `true` at once when remembered (most of what a poll reads: no promise to wait
   * for), else the store's answer.
   */
  has(topicId: string, id: string): true | Promise<boolean> {
    return this.refs.has(mentionRef(topicId, id)) || this.store.hasSeen(topicId, id);
  }

  /** The mention's record is durable (the store's `recordInbound` resolved, new or not). */
  recorded(topicId: string, id: string): void {
    const ref = mentionRef(topicId, id);
    if (this.refs.has(ref)) return;
    if (this.refs.size >= this.max) {
      const oldest = this.refs.values().next();
      if (!oldest.done) this.refs.delete(oldest.value);
    }
    this.refs.add(ref);
  }

  get size(): number {
    return this.refs.size;
  }
}
