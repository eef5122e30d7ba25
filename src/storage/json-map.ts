/**
 * A Map that serialises as a plain JSON object. Maps keep ids like `constructor` or `__proto__` from
 * colliding with object internals, and `toJSON` lets the whole state go through one `JSON.stringify`.
 * It remembers which keys changed since they were last taken (entries given to the constructor
 * are loaded state, not changes).
 */
export class JsonMap<V> extends Map<string, V> {
  private changed: Set<string> | undefined = new Set();

  override set(key: string, value: V): this {
    super.set(key, value);
    this.changed?.add(key);
    return this;
  }

  override delete(key: string): boolean {
    const removed = super.delete(key);
    if (removed) this.changed?.add(key);
    return removed;
  }

  takeChanged(): string[] {
    const taken = [...(this.changed ?? [])];
    this.changed = new Set();
    return taken;
  }

  markChanged(keys: Iterable<string>): void {
    this.changed ??= new Set();
    for (const key of keys) this.changed.add(key);
  }

  toJSON(): Record<string, V> {
    return Object.fromEntries(this);
  }

  static from<V>(record: Record<string, V>): JsonMap<V> {
    const map = new JsonMap(Object.entries(record));
    map.takeChanged();
    return map;
  }
}
