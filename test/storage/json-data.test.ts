import { describe, expect, it } from 'vitest';
import { NotJsonData, copyJsonData, jsonDataOf } from '../../src/storage/json-data.js';

/** What the store used to do, and what `jsonDataOf` must give without the text. */
function roundTrip(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

class Money {
  constructor(readonly cents: number) {}
  toJSON(key: string): string {
    return `${key}:${this.cents / 100}`;
  }
}

const withGetter = {
  get computed() {
    return { n: 1 };
  },
  plain: 2,
};
const hidden = Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false });
// Holes: index 1 never set, and two more past the last value.
const sparse: number[] = [];
sparse[0] = 1;
sparse[2] = 3;
sparse.length = 5;

const CASES: Array<[string, unknown]> = [
  ['a string', 'x'],
  ['a number', 12.5],
  ['minus zero, read back as zero', -0],
  ['NaN and infinities, null', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, { n: Number.NaN }]],
  ['booleans and null', [true, false, null]],
  [
    'undefined, functions and symbols: left out of objects, null in arrays',
    { u: undefined, f: () => 1, s: Symbol('s'), a: [undefined, () => 1, Symbol('t')] },
  ],
  ['a Date, by its toJSON', { at: new Date(1_700_000_000_000) }],
  ['a toJSON given its key', { price: new Money(1250), list: [new Money(5)] }],
  ['boxed primitives', [Object(1), Object('s'), Object(false)]],
  ['a Map and a Set: empty objects', { m: new Map([[1, 2]]), s: new Set([1]) }],
  ['a sparse array', sparse],
  ['a __proto__ key, kept as a key', JSON.parse('{"__proto__":{"polluted":true},"ok":1}')],
  ['a getter, by its value', withGetter],
  ['no non-enumerable keys', hidden],
  ['nested records and arrays', { a: [{ b: [{ c: 'd', e: [1, [2, [3]]] }] }], f: {} }],
  [
    'the same object twice (not a cycle)',
    (() => {
      const shared = { x: 1 };
      return { a: shared, b: [shared, shared] };
    })(),
  ],
  ['a top-level undefined', undefined],
  ['a top-level function', () => 1],
];

describe('jsonDataOf', () => {
  it.each(CASES)('gives what reading back the JSON text gives: %s', (_name, value) => {
    const data = jsonDataOf(value);
    expect(data).toStrictEqual(roundTrip(value));
    expect(JSON.stringify(data)).toBe(JSON.stringify(value));
  });

  it('keeps a __proto__ key as an own key and leaves the prototype alone', () => {
    const data = jsonDataOf(JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a cycle and a BigInt as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => jsonDataOf(cyclic)).toThrow(NotJsonData);
    expect(() => jsonDataOf({ n: 1n })).toThrow(NotJsonData);
  });

  it('shares nothing with the value it was made from', () => {
    const value = { a: { b: [1, { c: 2 }] } };
    const data = jsonDataOf(value) as typeof value;
    (data.a.b[1] as { c: number }).c = 3;
    expect(value.a.b[1]).toEqual({ c: 2 });
  });
});

describe('copyJsonData', () => {
  it('copies JSON data deeply, a __proto__ key included, sharing nothing', () => {
    const data = JSON.parse('{"a":[1,{"b":"c"}],"__proto__":{"d":[true,null]},"e":{}}');
    const copy = copyJsonData(data);
    expect(copy).toStrictEqual(data);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(Object.keys(data));
    copy.a[1].b = 'changed';
    Object.getOwnPropertyDescriptor(copy, '__proto__')?.value.d.push(1);
    expect(data.a[1].b).toBe('c');
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value.d).toEqual([true, null]);
  });
});
