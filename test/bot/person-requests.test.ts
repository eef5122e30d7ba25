import { beforeAll, describe, expect, it } from 'vitest';
import { detectAll } from 'tinyld';
import { trainingSetOf, type Action, type LanguageGuesser } from '../../src/bot/index.js';
import { trainEmbeddedNlu, type EmbeddedNlu } from '../../src/nlu/index.js';
import { Chat, defaultFlows, escalation, kinds } from './bot-fixtures.js';

// Requests for a person, anger and calling a request off, read by the embedded NLU trained from the shipped flows.
const guesser: LanguageGuesser = (text, only) => detectAll(text, { only: [...only] });
let nlu: EmbeddedNlu;
beforeAll(async () => {
  nlu = await trainEmbeddedNlu(trainingSetOf(defaultFlows));
});

class ReadChat extends Chat {
  async tell(text: string): Promise<Action[]> {
    return this.say(text, { nlu: await nlu.parse(text) });
  }
}

describe('requests for a person, and people only told about', () => {
  it.each(["j'aimerais qu'une personne m'appelle", 'hello? anyone there?', 'ik wil een leidinggevende'])(
    'hands "%s" to people ("une personne" is someone, not "personne ne répond")',
    async (text) => {
      const chat = new ReadChat({ languageGuesser: guesser });
      expect(escalation(await chat.tell(text))?.packet.reason).toBe('explicit_request');
    },
  );

  it.each([
    'thanks, the agent was very helpful',
    'bedankt, jullie medewerker heeft me goed geholpen',
    "l'agent de livraison n'est jamais venu",
    "mon responsable m'a demandé de suivre la commande",
  ])('does not hand "%s" to people: the person named did something, nobody is asked for', async (text) => {
    const chat = new ReadChat({ languageGuesser: guesser });
    expect(escalation(await chat.tell(text))?.packet.reason).not.toBe('explicit_request');
  });
});

describe('requests for a person in words of their own, and messages that only sound like one', () => {
  it.each([
    'who can I take this up with? I would like to complain to someone',
    'kan iemand van jullie mij vanavond opbellen?',
    "je préférerais régler ça avec quelqu'un de chez vous",
    'your chatbot is a waste of time, escalate this to your superior',
    'ik wil dit escaleren naar de klachtendienst',
  ])('hands "%s" to people', async (text) => {
    const chat = new ReadChat({ languageGuesser: guesser });
    expect(escalation(await chat.tell(text))?.packet.reason).toBe('explicit_request');
  });

  it('hands a long story about a parcel that ends asking for someone to people: its first clauses are context', async () => {
    const chat = new ReadChat({ languageGuesser: guesser });
    const text =
      'My order came without the cable, I emailed twice and the chat sends me in circles, ' +
      'so I need somebody from your company to check this properly.';
    expect(escalation(await chat.tell(text))?.packet.reason).toBe('explicit_request');
  });

  it.each(['hmm let me check', 'spreken jullie ook Frans?', 'how do I apply for a job as an agent?'])(
    'does not hand "%s" to people: the customer checks, asks about a language or a job',
    async (text) => {
      const chat = new ReadChat({ languageGuesser: guesser });
      expect(escalation(await chat.tell(text))?.packet.reason).not.toBe('explicit_request');
    },
  );
});

describe('a request for a person called off', () => {
  it.each([
    ['get me a person', "nah it's fine, sorted it out myself"],
    ['I want a supervisor', "scratch that, I don't need one anymore"],
    ['un humain svp', "non c'est bon, plus la peine"],
    ['je veux parler à un conseiller', "laissez tomber, j'ai trouvé la réponse"],
  ])(
    '"%s", then "%s": the handover is cancelled (a retreat with its reason, words with an apostrophe counted once)',
    async (ask, retreat) => {
      const chat = new ReadChat({ languageGuesser: guesser });
      expect(escalation(await chat.tell(ask))?.packet.reason).toBe('explicit_request');
      expect(kinds(await chat.tell(retreat))[0]).toBe('cancel-escalation');
    },
  );
});

describe('two angry messages in a row', () => {
  it.each([
    ['bedankt voor niks', 'wat een klantenservice, om van te janken'],
    ['nog altijd geen pakket, dit slaat nergens op', 'ik vraag het nu voor de derde keer, waar blijft het?!'],
    ['merci pour rien', 'vraiment, vous vous moquez de moi'],
    ["toujours pas de colis, c'est abusé", 'je vous le demande pour la troisième fois !!!'],
    ['thanks for nothing', 'are you kidding me?? a whole month!!'],
  ])('"%s", then "%s": people get the conversation on the second', async (first, second) => {
    const chat = new ReadChat({ languageGuesser: guesser });
    expect(escalation(await chat.tell(first))).toBeUndefined();
    expect(escalation(await chat.tell(second))?.packet.reason).toBe('negative_sentiment');
  });

  it.each([
    ['jullie service is om te huilen', 'laat maar, jullie zijn waardeloos'],
    ["mon colis est encore en retard, c'est inadmissible", 'laissez tomber, vous êtes nuls'],
  ])('"%s", then "%s": the anger counts, not the "never mind" with no people asked for', async (first, second) => {
    const chat = new ReadChat({ languageGuesser: guesser });
    await chat.tell(first);
    expect(escalation(await chat.tell(second))?.packet.reason).toBe('negative_sentiment');
  });

  it('are not heard in an excited thanks after an angry message', async () => {
    const chat = new ReadChat({ languageGuesser: guesser });
    await chat.tell('this is so frustrating, when do you open on monday?');
    expect(escalation(await chat.tell('great, thank you!!!'))).toBeUndefined();
  });
});
