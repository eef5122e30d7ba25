import { describe, expect, it } from 'vitest';
import { wordLanguages } from '../../src/nlu/word-languages.js';

describe("the language a short message's words belong to", () => {
  const vote = wordLanguages(
    new Map([
      ['nl', ['Dank je', 'Oké, merci hoor', 'Waar is mijn pakket?']],
      ['fr', ['Merci !', 'Merci beaucoup', 'Super, merci', 'Où est mon colis ?']],
      ['en', ['Thanks!', 'Where is my parcel?']],
    ]),
  );

  it('gives a word to the language whose examples use it most ("merci" is French more often than Dutch)', () => {
    const scores = vote('merci');
    expect(scores?.fr).toBe(1);
    expect(scores?.nl).toBeGreaterThan(0);
    expect(scores?.nl).toBeLessThan(1);
    expect(scores?.en).toBe(0);
  });

  it('reads a letter typed three times or more once ("merciii")', () => {
    expect(vote('merciii')?.fr).toBe(1);
  });

  it('says nothing when the examples use none of the words', () => {
    expect(vote('AB-12345')).toBeUndefined();
    expect(vote('xyzzy')).toBeUndefined();
  });
});
