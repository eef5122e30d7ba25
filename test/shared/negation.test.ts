import { describe, expect, it } from 'vitest';
import { blankRefused, withoutNegated } from '../../src/shared/negation.js';

describe('negation in English, Dutch and French', () => {
  it.each([
    ['No agent needed, just tell me your opening hours', ', just tell me your opening hours'],
    ["I don't want a refund, I want my parcel", 'I , I want my parcel'],
    ['Ik wil geen terugbetaling, waar is mijn pakket?', 'Ik wil , waar is mijn pakket?'],
    ['Je ne veux pas de remboursement, où est mon colis ?', 'Je , où est mon colis ?'],
    ['Sans conseiller, juste les horaires', ', juste les horaires'],
  ])('leaves out the negated clause of "%s"', (text, kept) => {
    expect(withoutNegated(text)).toBe(kept);
  });

  it('keeps a negation that is the whole message ("my parcel has not arrived")', () => {
    expect(withoutNegated('My parcel has not arrived')).toBe('My parcel has not arrived');
    expect(withoutNegated("Je n'ai pas reçu ma commande")).toBe("Je n'ai pas reçu ma commande");
  });

  it('blanks refused requests for a person, not questions about reaching one', () => {
    expect(blankRefused('No agent needed, thanks')).not.toContain('agent');
    expect(blankRefused('Geen medewerker nodig')).not.toContain('medewerker');
    expect(blankRefused("Pas besoin d'un conseiller")).not.toContain('conseiller');
    expect(blankRefused('niet doorverbinden aub, ik wil alleen weten hoe laat jullie sluiten')).not.toContain('doorverbinden');
    expect(blankRefused("don't transfer me, just tell me when you open")).not.toContain('transfer');
    expect(blankRefused("Why can't I talk to a human?")).toContain('human');
    expect(blankRefused("I don't want a bot, I want a human")).toContain('human');
  });

  it('blanks a person the customer says they are not asking for ("not asking for an agent", "je ne demande pas un conseiller")', () => {
    expect(blankRefused("I'm not asking for an agent, I want to know about my refund")).not.toContain('agent');
    expect(blankRefused('je ne demande pas un conseiller, je veux savoir pour mon remboursement')).not.toContain('conseiller');
    expect(blankRefused('I am not looking for a person, just the hours')).not.toContain('person');
  });
});
