import { describe, expect, it } from 'vitest';
import { correctTypos, slips, wordsOf } from '../../src/nlu/spelling.js';

describe('typing slips', () => {
  it('counts a swap of neighbours as one slip, and stops counting past the limit', () => {
    expect(slips('oder', 'order', 1)).toBe(1);
    expect(slips('wnat', 'want', 1)).toBe(1);
    expect(slips('bestelingg', 'bestelling', 2)).toBe(2);
    expect(slips('parcel', 'hours', 1)).toBe(2);
  });

  it('reads an unknown word as the known word one slip away (two for long words), and leaves the rest alone', () => {
    const words = wordsOf(['where is my order', 'waar is mijn bestelling', 'je veux être remboursé']);
    expect(correctTypos('wher is my oder', words)).toBe('where is my order');
    expect(correctTypos('waar is mijn bestelingg', words)).toBe('waar is mijn bestelling');
    expect(correctTypos('je veux etre rembourse', words)).toBe('je veux etre rembourse');
    expect(correctTypos('order AB-12345 please', words)).toBe('order AB-12345 please');
  });
});
