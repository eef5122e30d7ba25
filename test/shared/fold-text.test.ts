import { describe, expect, it } from 'vitest';
import { foldText } from '../../src/shared/fold-text.js';

describe('foldText', () => {
  it('folds case, accents and punctuation, the same the first time and every time after', () => {
    const texts = ['Où est ma Commande ?', 'CAFÉ', '  thanks!! ', `${'Très long message, '.repeat(10)}fin`];
    const first = texts.map(foldText);
    expect(first).toEqual(['ou est ma commande', 'cafe', 'thanks', `${'tres long message '.repeat(10)}fin`]);
    expect(texts.map(foldText)).toEqual(first);
  });

  it('keeps folding right once more distinct texts than it remembers have gone through', () => {
    for (let i = 0; i < 5000; i++) foldText(`Mot ${i} É`);
    expect(foldText('Mot 1 É')).toBe('mot 1 e');
    expect(foldText('Mot 4999 É')).toBe('mot 4999 e');
  });
});
