/** How long (our clock, from the first message held) decisions wait at most for the poll after a restart. */
export const RESTART_GAP_MAX_MS = 60_000;

/**
 * The outage a restart leaves behind. While the bridge was down, the service's pushes of new mentions failed; the
 * poll finds those mentions later, when its read from the cursor reaches them (the list may show a mention some
 * seconds after its date). Meanwhile the webhook delivers what customers write after the restart at once: decided
 * at once, a customer's later message would be answered before the earlier one is even known, and people who take
 * the contact in between leave the earlier one unanswered.
 *
 * So after a restart, a mention dated after the newest one the poll has read (at first: where its cursor stood) is
 * not decided yet; the poll's progress wakes its contact. The gap closes for good once the poll has read as far as
 * the service's time at the restart: everything the outage hid is dated before it, and listed once the poll is
 * there. Only the service's times are compared with each other (`date.added`, the `Date` of its answers); our clock
 * only bounds the wait (RESTART_GAP_MAX_MS), after which decisions go on in arrival order and a warning says so.
 * With polling alone the poll records every mention itself, so only the moment between recording a page and
 * reporting it holds anything.
 */
export class RestartGap {
  private open = false;
  /** Newest `date.added` (UNIX seconds, the service's clock) of the pages the poll's read from its cursor recorded. */
  private readUpTo = Number.NEGATIVE_INFINITY;
  /** The service's time (UNIX seconds) at the restart: the poll must read this far. Unknown until it answered. */
  private until: number | undefined;
  /** Contacts with a mention held; woken when the poll moves on. */
  private readonly held = new Set<string>();
  /** When the first mention was held (our clock): the gap lasts RESTART_GAP_MAX_MS from then at most. */
  private heldSinceMs: number | undefined;

  constructor(
    private readonly o: {
      now: () => number;
      /** The service's time now (ms), from its answers; undefined before any. */
      serviceNowMs: () => number | undefined;
      wake: (key: string) => void;
      onExpired: (detail: { readUpTo: number; until: number | undefined }) => void;
      /** The poll read past the restart (not told when the wait ran out). */
      onClosed?: (detail: { until: number }) => void;
      maxMs?: number;
    },
  ) {}

  /** A restart; `readFrom`: the newest `date.added` the poll had read before it (its cursor), when it had one. */
  opened(readFrom: number | undefined): void {
    this.open = true;
    if (readFrom !== undefined) this.readUpTo = Math.max(this.readUpTo, readFrom);
    this.learnUntil();
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** The poll's read from its cursor recorded a page whose newest mention is dated `newestAddedAt`. */
  read(newestAddedAt: number): void {
    if (!this.open || newestAddedAt <= this.readUpTo) return;
    this.readUpTo = newestAddedAt;
    this.learnUntil();
    if (!this.closeIfRead()) this.wakeHeld();
  }

  /** Whether a mention of `key` dated `addedAt` may be decided now; when not, the poll's progress wakes `key`. */
  mayDecide(key: string, addedAt: number): boolean {
    if (!this.open || addedAt <= this.readUpTo) return true;
    this.learnUntil();
    if (this.closeIfRead()) return true;
    const now = this.o.now();
    this.heldSinceMs ??= now;
    if (now - this.heldSinceMs > (this.o.maxMs ?? RESTART_GAP_MAX_MS)) {
      this.o.onExpired({ readUpTo: this.readUpTo, until: this.until });
      this.close();
      return true;
    }
    this.held.add(key);
    return false;
  }

  /** The service's time, the first time it is known after the restart (a later moment only asks more reading). */
  private learnUntil(): void {
    if (this.until !== undefined) return;
    const serviceNow = this.o.serviceNowMs();
    if (serviceNow !== undefined) this.until = Math.floor(serviceNow / 1000);
  }

  private closeIfRead(): boolean {
    if (this.until === undefined || this.readUpTo < this.until) return false;
    this.close();
    this.o.onClosed?.({ until: this.until });
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
