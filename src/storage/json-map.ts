/**
 * A Map that serialises as a plain JSON object. Maps keep ids like `constructor` or `__proto__` from
 * colliding with object internals, and `toJSON` lets the whole state go through one `JSON.stringify`
 * (the core row, `bridge_core`).
 */
export class JsonMap<V> extends Map<string, V> {
  toJSON(): Record<string, V> {
    return Object.fromEntries(this);
  }

  static from<V>(record: Record<string, V>): JsonMap<V> {
    return new JsonMap(Object.entries(record));
  }
}
