import { describe, it, expect } from 'vitest';
import { decide, parseFlows, FlowFileError, type Action, type DecideInput, type DialogState } from '../../src/bot/index.js';
import { detectAll } from 'tinyld';
import { detectLanguage } from '../../src/bot/choose-language.js';
import type { LanguageGuesser } from '../../src/bot/index.js';
import { defaultFlows, escalation, MONDAY_OPEN, mainMenu, replies, SATURDAY_CLOSED, supportDesk } from './bot-fixtures.js';

function problemsOf(text: string): FlowFileError {
  try {
    parseFlows(text, 'flows.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(FlowFileError);
    return e as FlowFileError;
  }
  throw new Error('expected the flow file to be refused');
}

/** The detector as the bridge hands it to the brain (loaded there at its first use). */
const guesser: LanguageGuesser = (text, only) => detectAll(text, { only: [...only] });

/** One conversation through decide(), with the language clues a test wants to give. */
class Talk {
  state: DialogState | undefined;
  now = MONDAY_OPEN;
  private seq = 0;
  constructor(public extra: Partial<DecideInput> = {}) {}

  say(
    text: string,
    more: {
      language?: string;
      clicked?: { id: string; title: string }[];
      nlu?: Extract<DecideInput['event'], { kind: 'message' }>['nlu'];
    } = {},
  ): Action[] {
    const d = decide({
      flows: defaultFlows,
      event: { kind: 'message', mentionId: `m${++this.seq}`, text, ...more },
      conversation: this.state,
      contact: { name: 'Ann', tags: [] },
      channel: 'whatsapp',
      now: this.now,
      hours: { schedule: supportDesk },
      cannedResponses: [mainMenu],
      languageGuesser: guesser,
      ...this.extra,
    });
    this.state = d.state;
    this.now += 60_000;
    return d.actions;
  }
}

describe('texts per language in the flow file', () => {
  it('ships the default flows in English, Dutch and French', () => {
    expect(defaultFlows.languages.default).toBe('en');
    expect(defaultFlows.languages.supported).toEqual(['nl', 'fr']);
    expect(defaultFlows.greeting.text).toBe("Hi {name}! I'm the Support desk assistant.");
    const nl = defaultFlows.translations?.nl ?? [];
    expect(nl.find((t) => t.path.join('.') === 'greeting.text')?.value).toMatch(/^Hallo/);
  });

  it('reports a text missing in a declared language with its path and line', () => {
    const err = problemsOf(`languages:
  default: en
  supported: [nl]
greeting:
  text: { en: Hi }
fallback:
  text: { en: Sorry, nl: Sorry }
`);
    expect(err.problems).toEqual([{ path: 'greeting.text', line: 5, message: 'no text in language "nl" (declared under languages)' }]);
  });

  it('reports a text in a language that is not declared', () => {
    const err = problemsOf(`greeting:
  text: { en: Hi, de: Hallo }
fallback:
  text: Sorry
`);
    expect(err.problems[0]).toMatchObject({ path: 'greeting.text.de', line: 2 });
  });

  it('reports a language step naming an undeclared language', () => {
    const err = problemsOf(`greeting:
  text: Hi
fallback:
  text: Sorry
menus:
  lang:
    text: Which?
    buttons:
      - title: Deutsch
        then: { language: de }
`);
    expect(err.problems[0]?.path).toBe('menus.lang.buttons.0.then.language');
  });

  it("counts every language's keywords in every conversation", () => {
    expect(defaultFlows.intents.order_status?.keywords).toEqual(expect.arrayContaining(['order', 'bestelling', 'commande']));
  });
});

describe('choosing the conversation language', () => {
  it('does not take the French "personne" (nobody) for a request for a person', () => {
    const actions = new Talk().say('Personne ne répond au téléphone depuis hier');
    expect(escalation(actions)).toBeUndefined();
  });

  it('greets and escalates a customer who writes in Dutch in Dutch, and tells people the language', () => {
    const talk = new Talk();
    const first = replies(talk.say('Goedemiddag, waar is mijn pakket?'));
    expect(first[0]).toBe('Hallo Ann! Ik ben de assistent van de klantendienst.');
    expect(first[1]).toBe('Wat is uw bestelnummer? Het ziet eruit als AB-12345.');
    const actions = talk.say('Ik wil met een medewerker praten');
    expect(replies(actions)[0]).toBe('Ik geef u door aan een collega. Die antwoordt hier in deze chat.');
    expect(escalation(actions)?.packet.language).toBe('nl');
    expect(escalation(actions)?.packet.summary).toContain('language nl');
  });

  it('guesses the language without the order numbers and codes in the text ("GH" reads as English to the detector)', () => {
    expect(detectLanguage('mijn bestelling met nummer GH-77120 is er nog altijd niet', ['en', 'nl', 'fr'], 20, guesser)).toBe('nl');
  });

  it('leaves a short or unclear message in the default language', () => {
    expect(detectLanguage('hoi', ['en', 'nl', 'fr'], 20, guesser)).toBeUndefined();
    expect(detectLanguage('Order 42 arrived broken', ['en', 'nl', 'fr'], 20, guesser)).toBeUndefined();
    expect(replies(new Talk().say('hi'))[0]).toBe("Hi Ann! I'm the Support desk assistant.");
  });

  it('decides a defaulted language again from the first long enough message; short ones do not flip it, long ones do', () => {
    const talk = new Talk();
    talk.say('hoi');
    expect(talk.state?.languageSource).toBe('default');
    talk.say('Wanneer zijn jullie open vandaag?');
    expect(talk.state?.language).toBe('nl');
    talk.say('ok thanks');
    expect(talk.state?.language).toBe('nl');
    talk.say('Hello, I would like to know where my order is');
    expect(talk.state?.language).toBe('en');
  });

  it('guesses nothing without the detector: the default language, until a message comes with it', () => {
    const talk = new Talk({ languageGuesser: undefined });
    expect(replies(talk.say('Goedemiddag, waar is mijn pakket?'))[0]).toBe("Hi Ann! I'm the Support desk assistant.");
    expect(talk.state?.languageSource).toBe('default');
    talk.extra = {};
    talk.say('Wanneer zijn jullie open vandaag?');
    expect(talk.state).toMatchObject({ language: 'nl', languageSource: 'detected' });
  });

  it("prefers a long message's own language over the contact attribute and the mention language", () => {
    const talk = new Talk({ contact: { name: 'Ann', tags: [], attributes: { language: 'FR' } } });
    talk.say('Goedemiddag, waar is mijn pakket?', { language: 'fr' });
    expect(talk.state).toMatchObject({ language: 'nl', languageSource: 'detected' });
    const hinted = new Talk();
    hinted.say('Hello, I would like to know where my order is', { language: 'nl-BE' });
    expect(hinted.state).toMatchObject({ language: 'en', languageSource: 'detected' });
  });

  it('judges a short unclear message by the contact attribute, then the mention language', () => {
    const talk = new Talk({ contact: { name: 'Ann', tags: [], attributes: { language: 'FR' } } });
    talk.say('ok', { language: 'nl' });
    expect(talk.state).toMatchObject({ language: 'fr', languageSource: 'contact' });
    const hinted = new Talk();
    hinted.say('ok', { language: 'nl-BE' });
    expect(hinted.state).toMatchObject({ language: 'nl', languageSource: 'mention' });
  });

  it("judges a short first message by the NLU's language scores", () => {
    const talk = new Talk();
    const nlu = { intent: '_person', confidence: 1, entities: [], source: 'embedded' as const, languages: { en: 0, nl: 1, fr: 0 } };
    talk.say('medewerker?', { nlu });
    expect(talk.state).toMatchObject({ language: 'nl', languageSource: 'detected' });
  });

  it("asks a settled conversation's detector about the new message alone, and never reads the NLU's language scores", () => {
    const asked: string[] = [];
    const counting: LanguageGuesser = (text, only) => {
      asked.push(text);
      return guesser(text, only);
    };
    const talk = new Talk({ languageGuesser: counting });
    talk.say('Wanneer zijn jullie open vandaag? Ik wil langskomen');
    talk.say('Waar is mijn pakket, ik wacht al een week');
    expect(talk.state).toMatchObject({ language: 'nl', languageSource: 'detected' });
    asked.length = 0;
    let scoresRead = 0;
    const nlu = {
      intent: 'order_status',
      confidence: 1,
      entities: [],
      source: 'embedded' as const,
      get languages() {
        scoresRead += 1;
        return { en: 1, nl: 0, fr: 0 };
      },
    };
    talk.say('ok', { nlu });
    expect(talk.state).toMatchObject({ language: 'nl', languageSource: 'detected' });
    // "ok" is too short for the detector; the language chosen from a long text is kept without a look at the rest.
    expect(asked).toEqual([]);
    expect(scoresRead).toBe(0);
  });

  it("keeps the customer's choice from the language menu over every clue, and for the next conversation", () => {
    const talk = new Talk({ contact: { name: 'Ann', tags: [], attributes: { language: 'nl' } } });
    talk.say('hi');
    const menu = replies(talk.say('language'));
    expect(menu[0]).toContain('Welke taal');
    const chosen = replies(talk.say('Français'));
    expect(chosen[0]).toContain("D'accord, continuons en français.");
    expect(talk.state).toMatchObject({ language: 'fr', chosenLanguage: 'fr' });
    talk.now += 3 * 24 * 60 * 60_000;
    expect(replies(talk.say('Goedemiddag, waar is mijn pakket?'))[0]).toBe("Bonjour Ann ! Je suis l'assistant du service client.");
  });

  it('writes weekdays and times of the business hours in the conversation language', () => {
    const talk = new Talk({ now: SATURDAY_CLOSED });
    talk.now = SATURDAY_CLOSED;
    const text = replies(talk.say('Bonjour, quels sont vos horaires d’ouverture ?')).join('\n');
    expect(text).toContain('Nous revenons lundi à 09:00');
    expect(text).toContain('lundi–vendredi 09:00–17:00');
  });
});
