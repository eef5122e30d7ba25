/** FNV-1a: stable across processes and versions, so a key always lands in the same shard. */
export function shardOf(key: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shardCount;
}

/**
 * A keyed collection split into shards by key hash (smaller maps: cheaper to grow). It tracks which keys changed, so
 * a commit writes only their rows (`sql-state.ts`): the cost of a write follows what changed, not what is stored.
 */
export class ShardedMap<V> {
  private readonly shards: Array<Map<string, V>>;
  /** Keys changed since they were last taken (set or deleted). */
  private changed = new Set<string>();
  private count = 0;

  /** Entries per class, kept as they change (when `classify` is given): counts without a scan. */
  private readonly tallies = new Map<string, number>();

  constructor(
    readonly shardCount: number,
    private readonly classify?: (value: V) => string,
  ) {
    this.shards = Array.from({ length: shardCount }, () => new Map());
  }

  /** How many entries `classify` puts in `name`. */
  tally(name: string): number {
    return this.tallies.get(name) ?? 0;
  }

  private count1(value: V | undefined, by: number): void {
    if (value === undefined || !this.classify) return;
    const name = this.classify(value);
    this.tallies.set(name, (this.tallies.get(name) ?? 0) + by);
  }

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.shard(key).get(key);
  }

  has(key: string): boolean {
    return this.shard(key).has(key);
  }

  set(key: string, value: V): void {
    const shard = this.shard(key);
    const before = shard.get(key);
    if (before === undefined && !shard.has(key)) this.count += 1;
    this.count1(before, -1);
    this.count1(value, 1);
    shard.set(key, value);
    this.changed.add(key);
  }

  /** Replaces a value without counting it as a change: the same entry in another form (a committed one left cold). */
  replaceQuietly(key: string, value: V): void {
    const shard = this.shard(key);
    if (!shard.has(key)) return;
    this.count1(shard.get(key), -1);
    this.count1(value, 1);
    shard.set(key, value);
  }

  delete(key: string): boolean {
    const shard = this.shard(key);
    this.count1(shard.get(key), -1);
    const removed = shard.delete(key);
    if (removed) {
      this.count -= 1;
      this.changed.add(key);
    }
    return removed;
  }

  /**
   * Visits every entry, shard by shard. Several times faster than `entries()` over tens of thousands (no generator,
   * no `[key, value]` pair made per entry): a scan of all conversations at start went from tens of ms to a few.
   */
  forEach(visit: (value: V, key: string) => void): void {
    for (const shard of this.shards) shard.forEach(visit);
  }

  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) yield* shard;
  }

  *values(): IterableIterator<V> {
    for (const shard of this.shards) yield* shard.values();
  }

  /** Hands over the keys changed since the last call; a failed write gives them back with `markChanged`. */
  takeChanged(): string[] {
    const taken = [...this.changed];
    this.changed = new Set();
    return taken;
  }

  markChanged(keys: Iterable<string>): void {
    for (const key of keys) this.changed.add(key);
  }

  private shard(key: string): Map<string, V> {
    return this.shards[shardOf(key, this.shardCount)]!;
  }
}
