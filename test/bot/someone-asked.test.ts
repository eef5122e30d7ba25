import { describe, expect, it } from 'vitest';
import { aboutSomethingElse, someoneAsked } from '../../src/bot/someone-asked.js';

describe('someoneAsked', () => {
  it.each([
    "I'd like to go over my case with somebody",
    'could I have a word with someone please',
    'who should I talk to about this mess?',
    'whoever is in charge of returns, please',
    'can someone phone me this evening',
    'please get in touch with me by email',
    'I want a call back from your shop',
    'is anybody actually reading this',
    'ik overleg dit liever met iemand',
    'kan ik dit aan iemand uitleggen',
    'met wie kan ik hierover praten?',
    'kunt u mij morgen terugbellen',
    'leest er nog iemand mee?',
    "je voudrais en discuter avec quelqu'un",
    'pouvez-vous me rappeler cet après-midi ?',
    "j'aimerais être recontacté",
    'à qui puis-je écrire pour ça ?',
    'is it real people answering or only bots?',
    "vous pouvez m'expliquer ça au téléphone ?",
    'contact me tomorrow please',
    'bereik mij op mijn vaste lijn',
    'laat een echte medewerker dit lezen',
    'kan ik met jullie helpdeskteam bellen?',
    'joignez-moi ce soir',
    'I have to settle this quickly with someone from billing',
    'ik wil dit snel regelen met iemand van de boekhouding',
    "je dois gérer ça rapidement avec quelqu'un de la comptabilité",
    'zit er bij jullie eigenlijk nog iemand?',
  ])('finds a request for a person in "%s"', (text) => {
    expect(someoneAsked(text)).not.toEqual([]);
  });

  it.each([
    'I talked to someone yesterday and nothing happened',
    'can someone tell me when my parcel comes?',
    'the courier called me at 7',
    'ik heb gisteren met iemand gesproken',
    'de koerier belde me gisteren',
    "j'ai parlé à quelqu'un hier",
    "le livreur ne m'a pas appelé",
    'where is my order?',
    'I forgot someone was coming to collect it',
    "please don't call me, mail the invoice",
    "ne m'appelez pas svp",
  ])('finds none in "%s": what happened, information asked, or no person at all', (text) => {
    expect(someoneAsked(text)).toEqual([]);
  });
});

describe('aboutSomethingElse', () => {
  it.each([
    'I would like to talk about my loyalty card',
    'ik wil even praten over mijn abonnement',
    'je voudrais parler du prix',
    'are you hiring customer service agents?',
    'do you speak Spanish?',
    'spreekt u ook Engels?',
    'hang on, let me check',
    'laissez-moi vérifier',
    'we spoke to your colleague last week, thanks for that',
    'ik heb gisteren al met de klantendienst gebeld, bedankt',
    "j'ai déjà eu un conseiller au téléphone, merci",
    'how can I reach the courier?',
    'iemand belde aan maar er was niemand, waar is mijn pakket?',
  ])('"%s" is about a subject, a job, a language, the customer checking or an earlier contact, not a request', (text) => {
    expect(aboutSomethingElse(text)).toBe(true);
  });

  it.each([
    'I want to talk to someone about my card',
    'ik wil een specialist spreken over mijn probleem',
    'get me a person',
    'I called twice already, can someone finally help me?',
    'can someone from the shop contact me?',
  ])('"%s" may be one', (text) => {
    expect(aboutSomethingElse(text)).toBe(false);
  });
});
