import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/commands/tokenize.js';
import { findCountry } from '../../src/commands/find-country.js';
import { parseContactRef, parseMentionRef } from '../../src/commands/references.js';

describe('tokenize', () => {
  it.each([
    ['a  b\tc', ['a', 'b', 'c']],
    ['company="Acme NV" x', ['company=Acme NV', 'x']],
    ['comments=\'say "hi"\'', ['comments=say "hi"']],
    ['company="A \\"B\\" C"', ['company=A "B" C']],
    ['company=“Acme NV”', ['company=Acme NV']],
    ["company=O'Brien", ["company=O'Brien"]],
    ["company='O'Brien Ltd'", ["company=O'Brien Ltd"]],
    ['comments=""', ['comments=']],
  ])('splits %j', (text, tokens) => {
    expect(tokenize(text)).toEqual({ ok: true, tokens });
  });

  it('refuses an unbalanced quote', () => {
    expect(tokenize('company="Acme')).toEqual({ ok: false, error: 'unbalanced double quote' });
  });
});

describe('findCountry', () => {
  it.each([
    ['BE', 'BE'],
    ['be', 'BE'],
    ['Belgium', 'BE'],
    ['  belgium ', 'BE'],
    ['cote d’ivoire', 'CI'],
    ['The Netherlands', 'NL'],
    ['UK', 'GB'],
    ['St. Lucia', 'LC'],
    ['Bosnia & Herzegovina', 'BA'],
  ])('finds %j', (text, code) => {
    expect(findCountry(text)?.code).toBe(code);
  });

  it.each(['Belgum', 'QQ', '', 'Atlantis'])('does not find %j', (text) => {
    expect(findCountry(text)).toBeUndefined();
  });
});

describe('references', () => {
  it('reads a mention permalink with a query and no trailing slash', () => {
    expect(parseMentionRef('https://app.engagor.com/messages/1001/permalink/2001/9001?x=1')).toEqual({
      ok: true,
      value: { topicId: '2001', mentionId: '9001' },
    });
  });
  it('reads a Slack-wrapped labelled contact link', () => {
    expect(parseContactRef('<https://app.engagor.com/1001/inbox/contact/7001/|Ann>')).toEqual({ ok: true, value: { id: '7001' } });
  });
});
