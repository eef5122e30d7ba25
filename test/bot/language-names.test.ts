import { describe, expect, it } from 'vitest';
import { languagesNamed, namedLanguageButton } from '../../src/bot/language-names.js';
import { defaultFlows } from './bot-fixtures.js';

const declared = [{ language: 'en' }, { language: 'nl' }, { language: 'fr' }];

describe('languages the customer names', () => {
  it.each([
    ['kunnen we in het Frans verder?', ['fr']],
    ['in English please', ['en']],
    ['parlez-vous néerlandais ?', ['nl']],
    ['can you answer in Dutch', ['nl']],
    ['Nederlandstalig graag', ['nl']],
    ['do you speak French or Dutch?', ['nl', 'fr']],
    ['where is my parcel', []],
  ])('finds in "%s" %j', (text, expected) => {
    expect(languagesNamed(text, declared)).toEqual(expected);
  });

  it('leaves out a language named in a negated clause ("I don\'t speak French, English please")', () => {
    expect(languagesNamed("I don't speak French, English please", declared)).toEqual(['en']);
    expect(languagesNamed('je ne parle pas anglais', declared)).toEqual([]);
  });

  it('names one button of the language menu only when exactly one language is named', () => {
    expect(namedLanguageButton(defaultFlows, 'language', 'Français svp')).toBe('fr');
    expect(namedLanguageButton(defaultFlows, 'language', 'French or Dutch?')).toBeUndefined();
    expect(namedLanguageButton(defaultFlows, 'main', 'English')).toBeUndefined();
  });
});
