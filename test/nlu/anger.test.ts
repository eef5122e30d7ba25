import { describe, expect, it } from 'vitest';
import { soundsAngry } from '../../src/nlu/anger.js';

describe('anger in the customer’s own words', () => {
  it('is read in English, Dutch and French, inflected and without accents, and from shouting', () => {
    for (const text of [
      'my order is late again, this is so annoying',
      "I'm sick of waiting",
      'wat een rotbedrijf',
      'dit is echt belachelijk',
      'ik ben het beu',
      'je suis furieuse',
      "c'est scandaleux",
      "j'en ai marre",
      'WHERE IS MY ORDER',
      'je suis très déçue',
      'what a waste of time',
      'ik ben echt teleurgesteld',
    ])
      expect(soundsAngry(text), text).toBe(true);
  });

  it('is not read from plain questions, thanks or one capitalised word', () => {
    for (const text of ['where is my order?', 'vous pouvez me passer le service clients ?', 'bedankt!', 'OK', 'Tell me about your shirts'])
      expect(soundsAngry(text), text).toBe(false);
  });
});
