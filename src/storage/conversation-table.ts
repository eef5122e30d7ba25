import type { Owner } from './records.js';

/** A conversation as held in memory: its compact JSON, plus the two fields every scan needs. */
export interface ConversationEntry {
  json: string;
  owner: Owner;
  updatedAt: number;
}

export const SHARD_COUNT = 256;

/** FNV-1a: stable across processes and versions, so a key always lands in the same shard file. */
export function shardOf(key: string, shardCount = SHARD_COUNT): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shardCount;
}

/**
 * The hot conversations, split into shards by key. Records are kept as JSON text (a third of the
 * memory of the parsed objects), and a write rewrites only the shards that changed since the last one.
 */
export class ConversationTable {
  private readonly shards: Array<Map<string, ConversationEntry>>;
  private dirty = new Set<number>();
  private count = 0;

  constructor(readonly shardCount = SHARD_COUNT) {
    this.shards = Array.from({ length: shardCount }, () => new Map());
  }

  get size(): number {
    return this.count;
  }

  get(key: string): ConversationEntry | undefined {
    return this.shard(key).get(key);
  }

  has(key: string): boolean {
    return this.shard(key).has(key);
  }

  set(key: string, entry: ConversationEntry): void {
    const shard = this.shard(key);
    if (!shard.has(key)) this.count += 1;
    shard.set(key, entry);
    this.dirty.add(shardOf(key, this.shardCount));
  }

  delete(key: string): boolean {
    const removed = this.shard(key).delete(key);
    if (removed) {
      this.count -= 1;
      this.dirty.add(shardOf(key, this.shardCount));
    }
    return removed;
  }

  *entries(): IterableIterator<[string, ConversationEntry]> {
    for (const shard of this.shards) yield* shard;
  }

  /** The shard's records as JSON Lines text (empty string for an empty shard). */
  shardText(index: number): string {
    const shard = this.shards[index];
    if (!shard || shard.size === 0) return '';
    const lines: string[] = [];
    for (const entry of shard.values()) lines.push(entry.json);
    return lines.join('\n') + '\n';
  }

  /** Hands over the shards changed since the last call; a failed write gives them back. */
  takeDirty(): number[] {
    const taken = [...this.dirty];
    this.dirty = new Set();
    return taken;
  }

  markDirty(indexes: Iterable<number>): void {
    for (const index of indexes) this.dirty.add(index);
  }

  private shard(key: string): Map<string, ConversationEntry> {
    return this.shards[shardOf(key, this.shardCount)]!;
  }
}
