import { describe, expect, it } from 'vitest';
import { countryCode, countryName } from '../../src/simulator/countries.js';

describe('English country list', () => {
  it('finds codes by English name regardless of case, accents and & / St. spellings', () => {
    expect(countryCode('Belgium')).toBe('BE');
    expect(countryCode('  united   KINGDOM ')).toBe('GB');
    expect(countryCode("Cote d'Ivoire")).toBe('CI');
    expect(countryCode('Saint Lucia')).toBe('LC');
    expect(countryCode('Trinidad and Tobago')).toBe('TT');
    expect(countryCode('United States of America')).toBe('US');
    expect(countryCode('Myanmar')).toBe('MM');
  });

  it('knows only assigned ISO 3166-1 codes', () => {
    expect(countryName('be')).toBe('Belgium');
    expect(countryName('LC')).toBe('Saint Lucia');
    expect(countryName('HK')).toBe('Hong Kong');
    expect(countryName('TT')).toBe('Trinidad and Tobago');
    expect(countryName('EU')).toBeUndefined();
    expect(countryName('XK')).toBeUndefined();
    expect(countryName('ZZ')).toBeUndefined();
    expect(countryCode('Belgum')).toBeUndefined();
    expect(countryCode('European Union')).toBeUndefined();
  });
});
