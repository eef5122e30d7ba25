import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trainEmbeddedNlu } from '../../src/nlu/index.js';

const set = {
  intents: {
    hours: { en: ['when are you open', 'what are your opening hours'], nl: ['wanneer zijn jullie open'], fr: ['quels sont vos horaires'] },
    order: { en: ['where is my order', 'my parcel did not arrive'], nl: ['waar is mijn bestelling'], fr: ['où est ma commande'] },
    refund: { en: ['i want a refund', 'money back please'], nl: ['ik wil mijn geld terug'], fr: ['je veux être remboursé'] },
    greet: { en: ['hello'], xx: ['not a language here'] },
  },
};

describe('the embedded NLU', () => {
  it('reads intent, runner-up and language scores, the same way every time it is trained on the same examples', async () => {
    const a = await trainEmbeddedNlu(set);
    const b = await trainEmbeddedNlu(set);
    const texts = ['When do you open?', 'waar blijft mijn bestelling', 'Où est mon colis ?', 'hello there'];
    const first = await Promise.all(texts.map((t) => a.parse(t)));
    expect(await Promise.all(texts.map((t) => b.parse(t)))).toEqual(first);
    expect(first[0]).toMatchObject({ source: 'embedded', intent: 'hours' });
    expect(first[1]).toMatchObject({ intent: 'order' });
    expect(first[2]?.languages?.fr).toBeGreaterThan(first[2]?.languages?.en ?? 1);
    expect(a.languages).toEqual(['en', 'fr', 'nl']);
    expect(a.examples).toBe(13);
  });

  it('leaves out a negated clause when another says what is wanted, and writes no model file', async () => {
    const nlu = await trainEmbeddedNlu(set);
    expect(await nlu.parse("I don't want a refund, where is my order")).toMatchObject({ intent: 'order' });
    expect(await nlu.parse('my parcel did not arrive')).toMatchObject({ intent: 'order' });
    expect(existsSync('model.nlp')).toBe(false);
  });

  it('has no reading for an empty message or without examples', async () => {
    expect(await (await trainEmbeddedNlu(set)).parse('   ')).toBeUndefined();
    expect(await (await trainEmbeddedNlu({ intents: {} })).parse('hello')).toBeUndefined();
  });
});

describe('the embedded NLU on messages with several parts', () => {
  const parts = {
    intents: {
      hours: { en: ['when are you open', 'what are your opening hours', 'what time do you close'] },
      order: { en: ['where is my order', 'my parcel did not arrive', 'when will my package come'] },
      thanks: { en: ['thanks', 'thank you very much', 'cheers, that helped'] },
      _person: { en: ['I want to talk to a human', 'let me speak to someone', 'get me an agent', 'someone please'] },
      _none: { en: ['hello', 'this is ridiculous', 'nobody ever answers here', 'tell me a joke'] },
    },
    yielding: ['thanks'],
  };

  it('reads the question beside a thanks, and a complaint that nobody answers as no request for a person', async () => {
    const nlu = await trainEmbeddedNlu(parts);
    expect(await nlu.parse('thank you very much, that helped, but where is my order?')).toMatchObject({ intent: 'order' });
    expect(await nlu.parse('thanks a lot! cheers! when are you open?')).toMatchObject({ intent: 'hours' });
    expect(await nlu.parse('thank you very much')).toMatchObject({ intent: 'thanks' });
    expect((await nlu.parse('nobody wants to talk to me'))?.intent).not.toBe('_person');
    expect(await nlu.parse('nobody answers, I want to talk to a human')).toMatchObject({ intent: '_person' });
    expect(await nlu.parse('someone?')).toMatchObject({ intent: '_person' });
  });

  it('reads a long message by what it asks for after the context', async () => {
    const nlu = await trainEmbeddedNlu(parts);
    const long = 'hello, thank you very much for the help yesterday, it really helped, my parcel did not arrive though and I am waiting';
    expect(await nlu.parse(long)).toMatchObject({ intent: 'order' });
  });

  it('reads what a long message asks for in a clause that also refuses something', async () => {
    const nlu = await trainEmbeddedNlu(parts);
    const long =
      'hello, thank you very much for the help yesterday, cheers, that helped, and when will my package come because I do not want to wait';
    expect(await nlu.parse(long)).toMatchObject({ intent: 'order' });
  });

  it('reads anger from the customer’s words', async () => {
    const nlu = await trainEmbeddedNlu(parts);
    expect(await nlu.parse('my parcel did not arrive, this is so annoying')).toMatchObject({ sentiment: 'negative' });
    expect((await nlu.parse('where is my order'))?.sentiment).not.toBe('negative');
  });
});
