/** An append-only log with increasing `seq`, keeping only the newest `capacity` entries. */
export class BoundedLog<T extends { seq: number }> {
  private entries: T[] = [];
  private lastSeq = 0;

  constructor(private readonly capacity = 200_000) {}

  append(entry: Omit<T, 'seq'>): T {
    const full = { ...entry, seq: ++this.lastSeq } as T;
    this.entries.push(full);
    // Trim in chunks so appends stay O(1) amortised.
    if (this.entries.length > this.capacity + Math.max(1, this.capacity >> 4)) {
      this.entries = this.entries.slice(this.entries.length - this.capacity);
    }
    return full;
  }

  /** Entries with `seq > after`, oldest first, at most `limit`. */
  after(after: number, limit = Number.MAX_SAFE_INTEGER): T[] {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.seq <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.entries.slice(lo, lo + limit);
  }

  get last(): number {
    return this.lastSeq;
  }

  get size(): number {
    return Math.min(this.entries.length, this.capacity);
  }

  /** Forgets the entries but keeps `seq` increasing, so readers' cursors stay meaningful. */
  clear(): void {
    this.entries = [];
  }
}
