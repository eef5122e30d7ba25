import { describe, expect, it } from 'vitest';
import { personOnlyReported } from '../../src/bot/reported-person.js';

const WORDS = [
  'agent',
  'manager',
  'person',
  'medewerker',
  'collega',
  'conseiller',
  'conseillere',
  'responsable',
  'boss',
  'patron',
  'directeur',
  'teamleider',
  'talk to someone',
  'call me back',
  'me terugbellen',
  'vous me joindre',
];

describe('a person the customer tells about, not one asked for', () => {
  it.each([
    'thanks, the agent was very helpful',
    'my manager asked me to get a refund',
    'the person at the counter told me to ask here',
    'bedankt, jullie medewerker heeft me goed geholpen',
    'mijn collega heeft het besteld, waar blijft het?',
    'merci, votre conseillère a été très efficace',
    "mon responsable m'a demandé de suivre la commande",
    "l'agent de livraison n'est jamais venu",
    'when is the manager in?',
    'hoe laat begint de teamleider?',
    'à quelle heure le directeur arrive ?',
    'is your boss available on saturday?',
    'my boss paid for the order, can he get a refund?',
    'mon patron veut être remboursé',
    'can I pick it up in person?',
    'how can I work as an agent for you?',
    'ik wil solliciteren als medewerker',
    "le conseiller a raccroché, puis l'agent m'a dit d'attendre",
    'the agent on the phone hung up on me',
    'ik heb met een medewerker gebeld over mijn retour',
    'mon conseiller dit que le colis est perdu',
    'is the manager in over christmas?',
    'werkt de teamleider op feestdagen?',
    'do you have an agent discount for my company?',
    'the agent who packed my parcel forgot the manual',
    "l'agent qui a préparé ma commande s'est trompé",
    'votre responsable a promis un geste commercial',
    'the manager at the shop desk was rude to me',
  ])('"%s" names a person only as someone who did something, the customer\'s own, or in a question about when', (text) => {
    expect(personOnlyReported(text, WORDS)).toBe(true);
  });

  it.each([
    'I want to talk to the manager',
    'the agent was rude, I want a manager',
    'can I talk to the agent who helped me yesterday',
    'is there an agent who speaks Dutch?',
    'medewerker aub',
    'is the manager there? he said he would call',
    'where is my order',
    'I want to speak to your boss',
    'je veux parler à mon conseiller',
    'can a manager call me tomorrow',
  ])('"%s" may be asking for one (or names none)', (text) => {
    expect(personOnlyReported(text, WORDS)).toBe(false);
  });

  it('is a call promised before ("the courier was supposed to call me back"), not a call asked for', () => {
    expect(personOnlyReported('the courier was supposed to call me back, where is my parcel?', WORDS)).toBe(true);
    expect(personOnlyReported('ze zouden me terugbellen maar er kwam niets', WORDS)).toBe(true);
    expect(personOnlyReported('can someone call me back please', WORDS)).toBe(false);
    expect(personOnlyReported('could you call me back?', WORDS)).toBe(false);
  });
});
