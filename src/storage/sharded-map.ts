/** FNV-1a: stable across processes and versions, so a key always lands in the same shard file. */
export function shardOf(key: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shardCount;
}

export function shardFileName(index: number): string {
  return `${index.toString(16).padStart(2, '0')}.jsonl`;
}

/**
 * A keyed collection split into shards by key hash, each shard one JSON Lines file of the snapshot. It
 * tracks which keys changed (for the next journal batch) and which shards (for the next snapshot), so
 * the cost of a write follows what changed, not how much is stored.
 */
export class ShardedMap<V> {
  private readonly shards: Array<Map<string, V>>;
  private dirty = new Set<number>();
  /** Keys changed since the last journal batch (set or deleted): the journal records their current value. */
  private changed = new Set<string>();
  private count = 0;

  constructor(
    readonly shardCount: number,
    private readonly lineOf: (key: string, value: V) => string,
  ) {
    this.shards = Array.from({ length: shardCount }, () => new Map());
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
    if (!shard.has(key)) this.count += 1;
    shard.set(key, value);
    this.dirty.add(shardOf(key, this.shardCount));
    this.changed.add(key);
  }

  delete(key: string): boolean {
    const removed = this.shard(key).delete(key);
    if (removed) {
      this.count -= 1;
      this.dirty.add(shardOf(key, this.shardCount));
      this.changed.add(key);
    }
    return removed;
  }

  *entries(): IterableIterator<[string, V]> {
    for (const shard of this.shards) yield* shard;
  }

  *values(): IterableIterator<V> {
    for (const shard of this.shards) yield* shard.values();
  }

  /** The shard as JSON Lines text (empty for an empty shard). */
  shardText(index: number): string {
    const shard = this.shards[index];
    if (!shard || shard.size === 0) return '';
    const lines: string[] = [];
    for (const [key, value] of shard) lines.push(this.lineOf(key, value));
    return `${lines.join('\n')}\n`;
  }

  /** Hands over the shards changed since the last call; a failed write gives them back with `markDirty`. */
  takeDirty(): number[] {
    const taken = [...this.dirty];
    this.dirty = new Set();
    return taken;
  }

  markDirty(indexes: Iterable<number>): void {
    for (const index of indexes) this.dirty.add(index);
  }

  /** Hands over the keys changed since the last call; a failed journal write gives them back with `markChanged`. */
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
