import { describe, expect, it } from 'vitest';
import { copyJsonData } from '../../src/storage/json-data.js';

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
