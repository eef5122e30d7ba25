/**
 * JSON data without the text: `jsonDataOf(v)` is what `JSON.parse(JSON.stringify(v))` gives, built directly (a
 * conversation is made JSON data as it is checked, `conversation-data.ts`), and `copyJsonData` copies a value that is
 * JSON data already (what the store hands out: a small fraction of `structuredClone`'s cost).
 */

/** Thrown for what `JSON.stringify` refuses (a cycle, a BigInt); the message says which, like `JSON.stringify`'s. */
export class NotJsonData extends TypeError {}

/**
 * Follows JSON.stringify's rules (toJSON, boxed primitives, own enumerable string keys in order, undefined, functions
 * and symbols left out of objects and null in arrays, non-finite numbers null) and JSON.parse's (-0 is read as 0).
 * Returns undefined where JSON.stringify would give no text at all.
 */
export function jsonDataOf(value: unknown): unknown {
  return serialize(value, '', []);
}

/** `jsonDataOf` for the value of an object's property `key` (what a `toJSON` is told). */
export function jsonDataOfProperty(value: unknown, key: string): unknown {
  return serialize(value, key, []);
}

/** `ancestors`: the objects being serialized around this one (a short array: nesting is shallow). */
function serialize(input: unknown, key: string | number, ancestors: object[]): unknown {
  let value = input;
  if (typeof value === 'object' && value !== null) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
      value = (value as { toJSON: (key: string) => unknown }).toJSON(String(key));
  } else if (typeof value === 'bigint' && typeof (BigInt.prototype as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as unknown as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON has no -0, NaN or Infinity: the text says 0 and null.
      return Number.isFinite(value) ? value + 0 : null;
    case 'bigint':
      throw new NotJsonData('Do not know how to serialize a BigInt');
    case 'object':
      if (value === null) return null;
      if (value instanceof Number) return serialize(Number(value), key, ancestors);
      if (value instanceof String) return String(value);
      if (value instanceof Boolean) return value.valueOf();
      return container(value, ancestors);
    default:
      return undefined;
  }
}

function container(value: object, ancestors: object[]): unknown {
  if (ancestors.includes(value)) throw new NotJsonData('Converting circular structure to JSON');
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i += 1) out[i] = serialize(value[i], i, ancestors) ?? null;
      return out;
    }
    const out: Record<string, unknown> = {};
    const holder = value as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      const item = serialize(holder[key], key, ancestors);
      if (item === undefined) continue;
      // A key named `__proto__` stays a key, as JSON.parse makes it (plain assignment would set the prototype); only
      // then defineProperty, which would otherwise leave every object in V8's slow dictionary mode.
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
      else out[key] = item;
    }
    return out;
  } finally {
    ancestors.pop();
  }
}

/** A deep copy of JSON data (plain objects, arrays, strings, finite numbers, booleans, null). */
export function copyJsonData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      out[i] = typeof item === 'object' && item !== null ? copyJsonData(item) : item;
    }
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key in source) {
    const item = source[key];
    const copy = typeof item === 'object' && item !== null ? copyJsonData(item) : item;
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, writable: true, enumerable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
