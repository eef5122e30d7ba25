import { JOINED_CURSOR } from './poller.js';

/** How long (our clock, from the first message held) decisions wait at most for the poll after a restart. */
export const RESTART_GAP_MAX_MS = 60_000;

/** The joint read's key: its position stands for a topic that has none of its own. */
const ALL_TOPICS = JOINED_CURSOR;

/**
 * The outage a restart leaves behind. While the bridge was down, the service's pushes of new mentions failed; the
 * poll finds those mentions later, when its read from the cursor reaches them (the list may show a mention some
 * seconds after its date). Meanwhile the webhook delivers what customers write after the restart at once: decided
 * at once, a customer's later message would be answered before the earlier one is even known, and people who take
 * the contact in between leave the earlier one unanswered.
 *
 * So after a restart, a customer's message dated in or after the second of the newest mention the poll has read
 * in its topic (at first: where the topic's cursor stood) is not decided yet, unless a read went through the whole
 * list in that second; the poll's progress wakes its contact. People's activity is never held (the worker asks only
 * for customers' messages): the bot must know of an agent's reply before it decides anything after it. The gap closes for good once the poll has read every watched topic past the
 * service's time at the restart: everything the outage hid is dated before it, and listed once the poll is there.
 * Only the service's times are compared with each other (`date.added`, the `Date` of its answers); our clock only
 * bounds the wait: RESTART_GAP_MAX_MS after the first message held (each held contact is woken then), decisions go
 * on in arrival order and a warning says so.
 */
export class RestartGap {
  private open = false;
  /**
   * Per topic: the newest `date.added` (UNIX seconds, the service's clock) its reads from the cursor recorded. What
   * is dated before it has been read; what is dated in that second may still be on the next page, or listed after
   * the read (a mention pushed after the restart can share the second of one read before it).
   */
  private readonly readBefore = new Map<string, number>();
  /**
   * Per topic: the newest `date.added` of a read that went through the whole list: all listed up to it is read. This
   * takes what the list shows of a second to be shown together, as the gap's closing takes what is dated before a
   * listed mention to be listed. A read that lists nothing tells nothing: a message held then waits for a later
   * second to be listed, or for the bound.
   */
  private readonly readThrough = new Map<string, number>();
  /** The topics that must be read past `until` before the gap closes (those watched at the restart). */
  private topics: readonly string[] = [];
  /** The service's time (UNIX seconds) at the restart: the poll must read this far. Unknown until it answered. */
  private until: number | undefined;
  /** Contacts with a message held; woken when the poll moves on, or when the wait runs out. */
  private readonly held = new Set<string>();
  /** When the first message was held (our clock): the gap lasts RESTART_GAP_MAX_MS from then at most. */
  private heldSinceMs: number | undefined;

  constructor(
    private readonly o: {
      now: () => number;
      /** The service's time now (ms), from its answers; undefined before any. */
      serviceNowMs: () => number | undefined;
      /** Runs the contact's worker now, or at `atMs` (our clock). */
      wake: (key: string, atMs?: number) => void;
      onExpired: (detail: { readUpTo: Record<string, number>; until: number | undefined }) => void;
      /** The poll read past the restart (not told when the wait ran out). */
      onClosed?: (detail: { until: number }) => void;
      maxMs?: number;
    },
  ) {}

  /** A restart; `readFrom`: per watched topic, the newest `date.added` its reads had reached (its cursor), if any. */
  opened(readFrom: ReadonlyMap<string, number | undefined>): void {
    this.open = true;
    this.topics = [...readFrom.keys()];
    for (const [topicId, at] of readFrom) if (at !== undefined) this.readBefore.set(topicId, at);
    this.learnUntil();
  }

  get isOpen(): boolean {
    return this.open;
  }

  /**
   * A read of `topicIds` from their cursor recorded a page whose newest mention is dated `newestAddedAt`;
   * `throughEnd`: the read went through the whole list, so nothing listed up to that second is left unread.
   */
  read(topicIds: readonly string[], newestAddedAt: number, throughEnd = false): void {
    if (!this.open) return;
    let moved = false;
    for (const topicId of topicIds) {
      if (throughEnd && newestAddedAt > (this.readThrough.get(topicId) ?? Number.NEGATIVE_INFINITY)) {
        this.readThrough.set(topicId, newestAddedAt);
        moved = true;
      }
      if (newestAddedAt <= (this.readBefore.get(topicId) ?? Number.NEGATIVE_INFINITY)) continue;
      this.readBefore.set(topicId, newestAddedAt);
      moved = true;
    }
    if (!moved) return;
    this.learnUntil();
    if (!this.closeIfRead()) this.wakeHeld();
  }

  /** Whether a customer's message of `key` in `topicId` dated `addedAt` may be decided now; if not, `key` is woken later. */
  mayDecide(key: string, topicId: string, addedAt: number): boolean {
    // `*`: the joint read, standing for every topic when the topics could not be listed at the restart.
    // The topic's own positions, both from one source: a joint read of other topics says nothing of this one.
    const source = this.readBefore.has(topicId) ? topicId : ALL_TOPICS;
    const before = this.readBefore.get(source) ?? Number.NEGATIVE_INFINITY;
    const through = this.readThrough.get(source) ?? Number.NEGATIVE_INFINITY;
    if (!this.open || addedAt < before || addedAt <= through) return true;
    this.learnUntil();
    if (this.closeIfRead()) return true;
    this.heldSinceMs ??= this.o.now();
    if (this.expireIfDue()) return true;
    // The bound holds even if the poll never moves again (its reads failing): the contact is woken at the deadline
    // (asked at every hold: the dispatcher keeps one timer per contact, the earliest, and an earlier one may pass).
    this.o.wake(key, this.deadline() + 1);
    this.held.add(key);
    return false;
  }

  /** Ends the wait when it has run out (the poll calls this after every poll, read or failed); true when it did. */
  expireIfDue(): boolean {
    if (!this.open || this.heldSinceMs === undefined || this.o.now() <= this.deadline()) return false;
    this.o.onExpired({ readUpTo: Object.fromEntries(this.readBefore), until: this.until });
    this.close();
    return true;
  }

  private deadline(): number {
    return (this.heldSinceMs ?? Number.POSITIVE_INFINITY) + (this.o.maxMs ?? RESTART_GAP_MAX_MS);
  }

  /** The service's time, the first time it is known after the restart (a later moment only asks more reading). */
  private learnUntil(): void {
    if (this.until !== undefined) return;
    const serviceNow = this.o.serviceNowMs();
    if (serviceNow !== undefined) this.until = Math.floor(serviceNow / 1000);
  }

  /** Closes once every topic is read past `until`: strictly, so the whole second of the restart has been listed. */
  private closeIfRead(): boolean {
    const until = this.until;
    if (until === undefined) return false;
    if (!this.topics.every((t) => (this.readBefore.get(t) ?? Number.NEGATIVE_INFINITY) > until)) return false;
    this.close();
    this.o.onClosed?.({ until });
    return true;
  }

  private close(): void {
    this.open = false;
    this.wakeHeld();
  }

  private wakeHeld(): void {
    const keys = [...this.held];
    this.held.clear();
    for (const key of keys) this.o.wake(key);
  }
}
