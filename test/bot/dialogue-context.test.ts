import { beforeAll, describe, expect, it } from 'vitest';
import { detectAll } from 'tinyld';
import { trainingSetOf, type Action, type LanguageGuesser } from '../../src/bot/index.js';
import { trainEmbeddedNlu, type EmbeddedNlu } from '../../src/nlu/index.js';
import { Chat, escalation, replies } from './bot-fixtures.js';

// Whole dialogues on the shipped flows, each message read by the embedded NLU trained from them: a language asked
// for in words or picked under the language menu, short replies to the question asked, an order number with "please".
const guesser: LanguageGuesser = (text, only) => detectAll(text, { only: [...only] });
let nlu: EmbeddedNlu;
beforeAll(async () => {
  nlu = await trainEmbeddedNlu(trainingSetOf((await import('./bot-fixtures.js')).defaultFlows));
});

class ReadChat extends Chat {
  constructor() {
    super({ languageGuesser: guesser });
  }
  async tell(text: string): Promise<Action[]> {
    return this.say(text, { nlu: await nlu.parse(text) });
  }
}

const ORDER_PROMPT = 'What is your order number? It looks like AB-12345.';
const REASK = "Hmm, that doesn't look like an order number. It has two letters and five digits, like AB-12345.";

describe('a language asked for in words or picked under the language menu', () => {
  it('confirms "kunnen we in het Frans verder?" with the menu in Dutch, then goes on in French', async () => {
    const chat = new ReadChat();
    await chat.tell('Hoe laat gaan jullie morgen open?');
    const menu = await chat.tell('kunnen we in het Frans verder?');
    expect(replies(menu)[0]).toContain('Welke taal verkiest u?');
    expect(chat.state?.language).toBe('nl');
    const next = await chat.tell('ok merci');
    expect(chat.state?.language).toBe('fr');
    expect(chat.state?.chosenLanguage).toBe('fr');
    expect(replies(next)[0]?.split('\n')[0]).toBe('Avec plaisir, Ann ! Autre chose ?');
  });

  it('goes on in the language named when the next message is only an order number', async () => {
    const chat = new ReadChat();
    await chat.tell('where is my parcel');
    await chat.tell('can you answer in Dutch');
    const next = await chat.tell('AB-12345');
    expect(chat.state?.language).toBe('nl');
    expect(escalation(next)?.packet.collected.order_number).toBe('AB-12345');
  });

  it('stays in Dutch when the customer asked about French but carries on in Dutch', async () => {
    const chat = new ReadChat();
    await chat.tell('spreken jullie ook Frans?');
    await chat.tell('ok, en waar is mijn bestelling eigenlijk?');
    expect(chat.state?.language).toBe('nl');
  });

  it.each([
    ['Dutch', 'nl', 'Oké, we gaan verder in het Nederlands.'],
    ['Français svp', 'fr', "D'accord, continuons en français."],
    ['Nederlands graag', 'nl', 'Oké, we gaan verder in het Nederlands.'],
  ])('takes "%s" typed under the language menu as a pick of %s', async (text, language, switched) => {
    const chat = new ReadChat();
    await chat.tell('switch language');
    const picked = await chat.tell(text);
    expect(chat.state?.chosenLanguage).toBe(language);
    expect(replies(picked)[0]?.split('\n')[0]).toBe(switched);
  });

  it('takes a message written in another language under the language menu as that language chosen', async () => {
    const chat = new ReadChat();
    await chat.tell('change language please');
    await chat.tell('waar is mijn pakket');
    expect(chat.state?.chosenLanguage).toBe('nl');
    expect(chat.state?.lastIntent).toBe('order_status');
  });
});

describe('short replies to the question asked', () => {
  it.each(['no', 'that one', 'yes', 'ja', 'oui', "I don't know my order number"])(
    'asks for the order number again after "%s" (not a cancel, a person or the menu)',
    async (reply) => {
      const chat = new ReadChat();
      expect(replies(await chat.tell("where's my order"))).toContain(ORDER_PROMPT);
      const actions = await chat.tell(reply);
      expect(replies(actions)).toEqual([REASK]);
      expect(chat.state?.question?.name).toBe('order_number');
    },
  );

  it('takes "AB-12345 please" as the answer, not as a request for a person', async () => {
    const chat = new ReadChat();
    await chat.tell("where's my order");
    const actions = await chat.tell('AB-12345 please');
    expect(escalation(actions)?.packet.reason).toBe('order_status');
    expect(escalation(actions)?.packet.collected.order_number).toBe('AB-12345');
  });

  it('still hands "AB-12345, but I want an agent" to people as a request for a person', async () => {
    const chat = new ReadChat();
    await chat.tell("where's my order");
    const actions = await chat.tell('AB-12345, but I want an agent');
    expect(escalation(actions)?.packet.reason).toBe('explicit_request');
  });

  it('lets a new subject through while the question waits', async () => {
    const chat = new ReadChat();
    await chat.tell("where's my order");
    await chat.tell('what time do you close today?');
    expect(chat.state?.lastIntent).toBe('opening_hours');
    expect(chat.state?.question).toBeUndefined();
  });
});

describe('a thanks after an answer', () => {
  it('answers "ok thanks, I\'ll wait until then" after the hours as a thanks, not as an order question', async () => {
    const chat = new ReadChat();
    await chat.tell('when do you open tomorrow');
    const actions = await chat.tell("ok thanks, I'll wait until then");
    expect(chat.state?.lastIntent).toBe('thanks');
    expect(replies(actions)[0]?.split('\n')[0]).toBe("You're welcome, Ann! Anything else?");
  });

  it("still takes a thanks with another intent's words or a question for that intent", async () => {
    const withParcel = new ReadChat();
    await withParcel.tell('when do you open tomorrow');
    await withParcel.tell("thanks, but my parcel still hasn't arrived");
    expect(withParcel.state?.lastIntent).toBe('order_status');
    const asking = new ReadChat();
    await asking.tell('when do you open tomorrow');
    await asking.tell('thanks! and has my stuff shipped?');
    expect(asking.state?.lastIntent).toBe('order_status');
  });
});

describe('short French', () => {
  it('answers "merci" alone in French (the French examples use the word far more than the Dutch ones)', async () => {
    const chat = new ReadChat();
    await chat.tell('merci');
    expect(chat.state?.language).toBe('fr');
  });
});
