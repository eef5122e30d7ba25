import { describe, it, expect } from 'vitest';
import type { Action, CannedResponse } from '../../src/bot/index.js';
import { readScore } from '../../src/bot/survey.js';
import { detectAll } from 'tinyld';
import { parseFlows, type LanguageGuesser } from '../../src/bot/index.js';
import { B3, Chat, defaultFlows, flowText, mainMenu, replies } from './bot-fixtures.js';

const csat: CannedResponse = { id: '503', name: 'Satisfaction', type: 'csat', message: 'How did we do?' };
const nps: CannedResponse = { id: '504', name: 'Recommend', type: 'nps', message: 'Would you recommend us?' };

const surveyReplies = (actions: Action[]) => actions.filter((a) => a.type === 'reply' && a.cannedResponseId !== undefined);
const answers = (actions: Action[]) => actions.filter((a) => a.type === 'survey-answer');

/** Escalates, lets a person take it, and returns it to the bot with `reason`. */
function afterPeople(chat: Chat, reason = 'resolved'): Action[] {
  chat.say('hello');
  chat.say('agent');
  chat.event({ kind: 'agent-took-over' });
  return chat.event({ kind: 'returned-to-bot', reason });
}

describe('the customer verdict after a stretch with people', () => {
  it('sends the account CSAT canned response once after a resolved stretch, with the escalation reason kept', () => {
    const chat = new Chat({ canned: [mainMenu, csat] });
    const back = afterPeople(chat);
    expect(surveyReplies(back)).toEqual([{ type: 'reply', text: 'How did we do?', cannedResponseId: '503' }]);
    expect(chat.state?.survey).toMatchObject({ kind: 'csat', reason: 'explicit_request' });
    expect(surveyReplies(chat.event({ kind: 'returned-to-bot', reason: 'resolved' }))).toEqual([]);
  });

  it('asks a Dutch or French customer in their language: the text, unless the flows name a canned response for it', () => {
    const languageGuesser: LanguageGuesser = (text, only) => detectAll(text, { only: [...only] });
    const chat = new Chat({ canned: [mainMenu, csat], languageGuesser });
    chat.say('Goedemiddag, ik wil graag met een medewerker praten');
    chat.event({ kind: 'agent-took-over' });
    const back = chat.event({ kind: 'returned-to-bot', reason: 'resolved' });
    expect(surveyReplies(back)).toEqual([]);
    expect(replies(back)).toContain('Hoe hebben we het gedaan? Antwoord met een cijfer van 1 (slecht) tot 5 (uitstekend).');
    const fr: CannedResponse = { id: '505', name: 'Satisfaction FR', type: 'csat', message: 'Comment avons-nous fait ?' };
    const flows = parseFlows(
      flowText.replace(
        '  type: csat                    # off',
        '  canned_response: { en: Satisfaction, nl: Satisfaction, fr: Satisfaction FR }\n  type: csat  # off',
      ),
      'flows.yaml',
    );
    const french = new Chat({ flows, canned: [mainMenu, csat, fr], languageGuesser });
    french.say("Bonjour, je voudrais parler à un conseiller s'il vous plaît");
    french.event({ kind: 'agent-took-over' });
    expect(surveyReplies(french.event({ kind: 'returned-to-bot', reason: 'resolved' }))).toEqual([
      { type: 'reply', text: 'Comment avons-nous fait ?', cannedResponseId: '505' },
    ]);
  });

  it('records a score, tags it, and thanks the customer', () => {
    const chat = new Chat({ canned: [mainMenu, csat] });
    afterPeople(chat);
    const actions = chat.say('4');
    expect(answers(actions)).toEqual([
      {
        type: 'survey-answer',
        kind: 'csat',
        score: 4,
        reason: 'explicit_request',
        channel: 'whatsapp',
        tags: ['csat-4'],
        tagContact: true,
      },
    ]);
    expect(replies(actions)).toEqual(['Thank you for your feedback!']);
    expect(chat.state?.survey).toBeUndefined();
  });

  it('does not ask when the people never answered and it came back for another reason', () => {
    const chat = new Chat({ canned: [mainMenu, csat] });
    chat.say('hello');
    chat.say('agent');
    expect(surveyReplies(chat.event({ kind: 'returned-to-bot', reason: 'idle' }))).toEqual([]);
  });

  it('asks on SMS as a numbered question, and reads a number word', () => {
    const chat = new Chat({ canned: [mainMenu, csat], channel: 'twilio' });
    const back = replies(afterPeople(chat));
    expect(back.at(-1)).toBe('How did we do? Reply with a number from 1 (bad) to 5 (great).');
    expect(answers(chat.say('five'))[0]).toMatchObject({ score: 5 });
  });

  it('lets a message that is no score go on as usual', () => {
    const chat = new Chat({ canned: [mainMenu, csat] });
    afterPeople(chat);
    const actions = chat.say('where is my order');
    expect(answers(actions)).toEqual([]);
    expect(replies(actions)[0]).toContain('order number');
    expect(answers(chat.say('5'))).toEqual([]);
  });

  it('follows the flow: off, nps by name, channels, delay', () => {
    const off = new Chat({ canned: [mainMenu, csat], flows: { ...defaultFlows, survey: { ...defaultFlows.survey, type: 'off' } } });
    expect(surveyReplies(afterPeople(off))).toEqual([]);
    const npsFlows = {
      ...defaultFlows,
      survey: { ...defaultFlows.survey, type: 'nps' as const, canned_response: 'recommend', delay_minutes: 10 },
    };
    const chat = new Chat({ canned: [mainMenu, csat, nps], flows: npsFlows });
    const back = surveyReplies(afterPeople(chat));
    expect(back).toMatchObject([{ cannedResponseId: '504', text: 'Would you recommend us?' }]);
    expect((back[0] as { sendAt?: number }).sendAt).toBeGreaterThan(chat.now);
    // Before the delayed question goes out, a "5" is no answer to it, and the question still awaits one.
    expect(answers(chat.say('5'))).toEqual([]);
    chat.now = (back[0] as { sendAt: number }).sendAt + 60_000;
    expect(answers(chat.say('9'))[0]).toMatchObject({ kind: 'nps', score: 9, tags: ['nps-9'] });
    const web = new Chat({
      canned: [mainMenu, csat],
      channel: 'web',
      flows: { ...defaultFlows, survey: { ...defaultFlows.survey, channels: ['whatsapp'] } },
    });
    expect(surveyReplies(afterPeople(web))).toEqual([]);
  });

  it('reads scores in range only, from clicks or short answers', () => {
    expect(readScore('csat', '5')).toBe(5);
    expect(readScore('csat', '4/5')).toBe(4);
    expect(readScore('csat', '9')).toBeUndefined();
    expect(readScore('nps', '0')).toBe(0);
    expect(readScore('nps', 'I would give you 8 out of 10 for sure')).toBeUndefined();
    expect(readScore('csat', '', { id: 'r3', title: '3', payload: '3' })).toBe(3);
    expect(readScore('csat', '', B3)).toBeUndefined();
  });
});
