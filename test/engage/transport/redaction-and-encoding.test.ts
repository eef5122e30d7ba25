import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/engage/index.js';
import { encodeParams } from '../../../src/engage/transport/encode-params.js';
import { fillPath } from '../../../src/engage/transport/path-template.js';
import { parseBaseUrl } from '../../../src/engage/transport/base-url.js';

describe('redactUrl', () => {
  it('removes access_token from absolute URLs and bare paths and keeps the rest', () => {
    expect(redactUrl('https://api.engagor.com/1001/inbox/mentions?access_token=abc&page_token=p2')).toBe(
      'https://api.engagor.com/1001/inbox/mentions?page_token=p2',
    );
    expect(redactUrl('/1001/x?page_token=p&access_token=abc')).toBe('/1001/x?page_token=p');
    expect(redactUrl('/1001/x?access_token=abc')).toBe('/1001/x');
    expect(redactUrl('/1001/x?access%5Ftoken=abc#f')).toBe('/1001/x');
    expect(redactUrl('/1001/x')).toBe('/1001/x');
  });
});

describe('encodeParams', () => {
  it('encodes booleans as "true"/"false", objects as JSON text, dates as ISO and leaves out undefined and null', () => {
    const out = encodeParams({ a: true, b: false, n: 0, s: '', o: { x: [1] }, d: new Date(0), u: undefined, z: null });
    expect([...out.entries()]).toEqual([
      ['a', 'true'],
      ['b', 'false'],
      ['n', '0'],
      ['s', ''],
      ['o', '{"x":[1]}'],
      ['d', '1970-01-01T00:00:00.000Z'],
    ]);
  });
});

describe('fillPath', () => {
  it('refuses empty and dot ids that would change the path', () => {
    expect(() => fillPath('/{account_id}/x/{id}', { account_id: '1', id: '..' })).toThrow(/invalid path value/);
    expect(() => fillPath('/{account_id}/x/{id}', { account_id: '1', id: '' })).toThrow(/invalid path value/);
    expect(() => fillPath('/{account_id}/x/{id}', { account_id: '1' })).toThrow(/missing path value/);
  });
});

describe('parseBaseUrl', () => {
  it('allows plain HTTP only on loopback and refuses credentials in the URL', () => {
    expect(parseBaseUrl('http://127.0.0.1:4010').host).toBe('127.0.0.1:4010');
    expect(parseBaseUrl('http://localhost:4010/').host).toBe('localhost:4010');
    expect(parseBaseUrl('https://api.engagor.com').protocol).toBe('https:');
    expect(() => parseBaseUrl('http://10.0.0.5')).toThrow(/https/);
    expect(() => parseBaseUrl('https://user:pw@api.engagor.com')).toThrow(/credentials/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not a URL/);
  });
});
