/**
 * A Map that tracks which keys changed, so a commit writes only their rows (`sql-state.ts`): the cost of a write
 * follows what changed, not what is stored. With `classify`, it also counts its entries per class as they change.
 */
export class TrackedMap<V> extends Map<string, V> {
  /** Keys changed since they were last taken (set or deleted). */
  private changed = new Set<string>();
  /** Entries per class, kept as they change (when `classify` is given): counts without a scan. */
  private readonly tallies = new Map<string, number>();

  constructor(private readonly classify?: (value: V) => string) {
    super();
  }

  /** How many entries `classify` puts in `name`. */
  tally(name: string): number {
    return this.tallies.get(name) ?? 0;
  }

  override set(key: string, value: V): this {
    this.count(super.get(key), -1);
    this.count(value, 1);
    this.changed.add(key);
    return super.set(key, value);
  }

  /** Replaces a value without counting it as a change: the same entry in another form (a committed one left cold). */
  replaceQuietly(key: string, value: V): void {
    if (!this.has(key)) return;
    this.count(super.get(key), -1);
    this.count(value, 1);
    super.set(key, value);
  }

  override delete(key: string): boolean {
    const before = super.get(key);
    if (!super.delete(key)) return false;
    this.count(before, -1);
    this.changed.add(key);
    return true;
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

  private count(value: V | undefined, by: number): void {
    if (value === undefined || !this.classify) return;
    const name = this.classify(value);
    this.tallies.set(name, (this.tallies.get(name) ?? 0) + by);
  }
}
