import { describe, expect, it } from 'vitest';
import { insistent, soundsAngry } from '../../src/nlu/anger.js';

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

  it('is read from sarcastic thanks, a complaint made again and insistent punctuation, in the three languages', () => {
    for (const text of [
      'thanks for nothing',
      'bedankt voor niks',
      'merci pour rien',
      'ik vraag het nu voor de derde keer',
      'je vous le demande pour la troisième fois',
      'I already asked twice',
      'how many times do I have to explain this',
      'jullie service is om te huilen',
      'vous vous moquez de moi',
      "toujours pas de colis, c'est abusé",
      'waar blijft het?!',
      'are you kidding me?? a whole month!!',
      'dit slaat nergens op',
      'this is the second time I ask',
      'het is al de derde keer dat ik bel',
      "c'est la troisième fois que je vous écris",
      'alweer te laat',
      "c'est pas possible, encore une fois",
      'ik ben zeer ontevreden',
    ])
      expect(soundsAngry(text), text).toBe(true);
  });

  it('leaves insistent punctuation out when the caller says so (a thanks), and does not read one doubled mark as anger', () => {
    expect(soundsAngry('thank you!!!', { punctuation: false })).toBe(false);
    expect(insistent('thank you!!!')).toBe(true);
    for (const text of [
      "where's my stuff??",
      'hoe vaak leveren jullie?',
      'het is al de tweede bestelling',
      'nulle part',
      "j'ai commandé la mauvaise taille",
      'this is the second time I order from you, love your shop',
    ])
      expect(soundsAngry(text), text).toBe(false);
  });
});
