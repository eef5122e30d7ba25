import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../src/simulator/filter-query.js';

type Item = { tags: string[]; kind: string };
const fields = {
  tag: (v: string) => (i: Item) => i.tags.includes(v),
  kind: (v: string) => (v === 'bad' ? undefined : (i: Item) => i.kind === v),
};
const items: Item[] = [
  { tags: ['a'], kind: 'x' },
  { tags: ['a', 'b'], kind: 'y' },
  { tags: [], kind: 'x' },
  { tags: ['b'], kind: 'z' },
];
const run = (q: string) => items.map((i, n) => (parseFilter(q, fields)(i) ? n : -1)).filter((n) => n >= 0);

describe('filter expressions', () => {
  it('gives AND precedence over OR and honours parentheses, NOT and quotes', () => {
    expect(run('tag:a OR tag:b AND kind:z')).toEqual([0, 1, 3]);
    expect(run('(tag:a OR tag:b) AND kind:y')).toEqual([1]);
    expect(run('tag:a kind:x')).toEqual([0]);
    expect(run('NOT tag:a')).toEqual([2, 3]);
    expect(run('kind:"x"')).toEqual([0, 2]);
    expect(run('')).toEqual([0, 1, 2, 3]);
  });

  it('refuses syntax errors, unknown fields and disallowed values with a 400', () => {
    for (const q of ['tag:a AND', '(tag:a', 'tag:a)', 'color:red', 'kind:bad', 'just words', 'OR tag:a']) {
      expect(() => parseFilter(q, fields), q).toThrow(expect.objectContaining({ status: 400, code: 'invalid_parameter' }));
    }
  });
});
