import { beforeAll, describe, expect, it } from 'vitest';
import { detectAll } from 'tinyld';
import { trainingSetOf, type Action, type LanguageGuesser } from '../../src/bot/index.js';
import { trainEmbeddedNlu, type EmbeddedNlu } from '../../src/nlu/index.js';
import { Chat, defaultFlows, escalation, kinds, replies } from './bot-fixtures.js';

// The brain with the reading of the embedded NLU trained from the shipped flows, as the bridge passes it in.
const guesser: LanguageGuesser = (text, only) => detectAll(text, { only: [...only] });
let nlu: EmbeddedNlu;
beforeAll(async () => {
  nlu = await trainEmbeddedNlu(trainingSetOf(defaultFlows));
});

/** A chat whose every message is read by the embedded NLU first. */
class ReadChat extends Chat {
  async tell(text: string): Promise<Action[]> {
    return this.say(text, { nlu: await nlu.parse(text) });
  }
}

const firstMessage = async (text: string): Promise<{ actions: Action[]; chat: ReadChat }> => {
  const chat = new ReadChat({ languageGuesser: guesser });
  return { actions: await chat.tell(text), chat };
};

describe('customers understood in their own words', () => {
  it.each([
    ['Let me talk to your manager', 'en'],
    ['Kan ik een collega spreken?', 'nl'],
    ['medewerker?', 'nl'],
  ])('hands "%s" to people as an explicit request, answering in %s', async (text, language) => {
    const { actions, chat } = await firstMessage(text);
    expect(escalation(actions)?.packet.reason).toBe('explicit_request');
    expect(chat.state?.language).toBe(language);
  });

  it.each([
    'Can I order a gift card?',
    'Dag, ik wil graag een refund',
    'Est-ce que vous avez un magasin à Bruxelles ?',
    'nice one',
    "you're the best",
  ])('does not take "%s" for a request for a person (it sounds like one only in its function words)', async (text) => {
    const { actions } = await firstMessage(text);
    expect(escalation(actions)?.packet.reason).not.toBe('explicit_request');
  });

  it('answers "No agent needed, just tell me your opening hours" with the hours, not a handover', async () => {
    const { actions, chat } = await firstMessage('No agent needed, just tell me your opening hours');
    expect(kinds(actions)).not.toContain('escalate');
    expect(chat.state?.lastIntent).toBe('opening_hours');
    expect(replies(actions).join(' ')).toContain("We're open until 17:00");
  });

  it('asks for the order number after "I don\'t want a refund, I want my parcel"', async () => {
    const { actions, chat } = await firstMessage("I don't want a refund, I want my parcel");
    expect(kinds(actions)).not.toContain('escalate');
    expect(chat.state?.lastIntent).toBe('order_status');
    expect(replies(actions)).toContain('What is your order number? It looks like AB-12345.');
  });

  it('hands "Je voudrais être remboursé" to people as a refund, in French', async () => {
    const { actions, chat } = await firstMessage('Je voudrais être remboursé');
    expect(escalation(actions)?.packet.intent).toBe('refund');
    expect(chat.state?.language).toBe('fr');
    expect(replies(actions)[0]).toBe("Bonjour Ann ! Je suis l'assistant du service client.");
  });

  it('answers "Où est ma commande ?" in French', async () => {
    const { actions } = await firstMessage('Où est ma commande ?');
    expect(replies(actions)).toEqual([
      "Bonjour Ann ! Je suis l'assistant du service client.",
      'Quel est votre numéro de commande ? Il ressemble à AB-12345.',
    ]);
  });

  it('takes "Thanks, but where is my order?" as a question about the order', async () => {
    const { actions, chat } = await firstMessage('Thanks, but where is my order?');
    expect(chat.state?.lastIntent).toBe('order_status');
    expect(replies(actions).join(' ')).not.toContain("You're welcome");
  });

  it('goes on with the order number of "where is order AB-12345?" without asking for it', async () => {
    const { actions, chat } = await firstMessage('where is order AB-12345?');
    const handover = escalation(actions);
    expect(handover?.packet.reason).toBe('order_status');
    expect(chat.state?.collected.order_number).toBe('AB-12345');
    expect(replies(actions).join(' ')).not.toContain('What is your order number');
  });

  it("hears anger in the customer's own words: two angry messages in a row go to people", async () => {
    const chat = new ReadChat({ languageGuesser: guesser });
    await chat.tell('This is terrible, my parcel is late again and I am furious');
    const actions = await chat.tell('Useless service, absolutely horrible');
    expect(escalation(actions)?.packet.reason).toBe('negative_sentiment');
  });

  it("reads a long message by what it asks after the context, even beside other intents' words", async () => {
    const asking =
      'I have explained this problem three times already in this chat and the answers do not fit my situation at all, it is about a combination of a return and a new order, so I would really like someone from your team to take this over.';
    expect(escalation((await firstMessage(asking)).actions)?.packet.reason).toBe('explicit_request');
    const waiting =
      'Hi, so last Tuesday I ordered two pairs of running shoes in your web shop, size 42, paid with PayPal, and the confirmation mail said two to three working days, but nothing has arrived and the tracking link gives an error. Can you check?';
    expect((await firstMessage(waiting)).chat.state?.lastIntent).toBe('order_status');
  });

  it('judges a language guessed from a greeting alone again with the next short message ("Hello", then Dutch)', async () => {
    const chat = new ReadChat({ languageGuesser: guesser });
    await chat.tell('Hello');
    expect(chat.state?.language).toBe('en');
    await chat.tell('waar is mijn pakket?');
    expect(chat.state?.language).toBe('nl');
    // Once a long text chose it, a short message in another language does not flip it.
    const long = new ReadChat({ languageGuesser: guesser });
    await long.tell('Goedemiddag, ik had graag geweten wanneer mijn bestelling geleverd wordt');
    await long.tell('ok merci');
    expect(long.state?.language).toBe('nl');
  });

  it('keeps the order number of a message that goes to people for another reason, so the agent has it', async () => {
    const { actions } = await firstMessage('I want a refund for order AB-12345, it arrived broken');
    expect(escalation(actions)?.packet.intent).toBe('refund');
    expect(escalation(actions)?.packet.collected).toEqual({ order_number: 'AB-12345' });
  });

  it('reads an order number typed with a dash from a phone ("AB–12345") as the answer to its question', async () => {
    const chat = new ReadChat({ languageGuesser: guesser });
    await chat.tell('where is my order?');
    const actions = await chat.tell('it is AB–12345');
    expect(escalation(actions)?.packet.collected).toEqual({ order_number: 'AB-12345' });
  });

  it('hands over a second angry message in Dutch and French, where NLP.js alone hears no anger', async () => {
    for (const [first, second] of [
      ['wat een rotbedrijf, ik word er gek van', 'dit is echt schandalig'],
      ["j'en ai marre de votre service", "c'est vraiment inadmissible"],
    ]) {
      const chat = new ReadChat({ languageGuesser: guesser });
      await chat.tell(first ?? '');
      expect(escalation(await chat.tell(second ?? ''))?.packet.reason).toBe('negative_sentiment');
    }
  });

  it('takes "niemand helpt me" and "personne ne répond" for complaints, not requests for a person', async () => {
    for (const text of ['dit is echt belachelijk, niemand helpt me', 'je suis furieux, personne ne répond jamais']) {
      const { actions } = await firstMessage(text);
      expect(escalation(actions)?.packet.reason, text).not.toBe('explicit_request');
    }
  });

  it('offers the two likeliest intents when the NLU hesitates between them, and the menu when it knows nothing', () => {
    const chat = new Chat();
    chat.say('hello');
    const hesitant = { intent: 'opening_hours', confidence: 0.45, runnerUp: { intent: 'order_status', confidence: 0.4 } };
    const asked = chat.say('something about tomorrow', { nlu: { ...hesitant, entities: [], source: 'embedded' } });
    expect(replies(asked)[0]).toBe(
      "I'm not sure I understood. Did you mean one of these?\n1. Opening hours\n2. Order status\nReply with a number.",
    );
    const picked = chat.say('2');
    expect(replies(picked)).toEqual(['What is your order number? It looks like AB-12345.']);
    const lost = new Chat();
    lost.say('hello');
    expect(replies(lost.say('blorp zzz', { nlu: { intent: '_none', confidence: 0.9, entities: [], source: 'embedded' } }))[0]).toContain(
      "Sorry, I didn't get that",
    );
  });
});
