import { describe, it, expect } from 'vitest';
import type { Action } from '../../src/bot/index.js';
import { B1, B2, B3, Chat, defaultFlows, escalation, kinds, replies } from './bot-fixtures.js';

const reply = (actions: Action[], i = 0): Extract<Action, { type: 'reply' }> => {
  const r = actions.filter((a): a is Extract<Action, { type: 'reply' }> => a.type === 'reply')[i];
  if (!r) throw new Error(`no reply ${i} in ${JSON.stringify(actions)}`);
  return r;
};

describe('greeting and menus', () => {
  it.each(['web', 'whatsapp', 'viber'] as const)('greets a new conversation on %s with native quick replies', (channel) => {
    const actions = new Chat({ channel }).say('hello');
    expect(reply(actions)).toEqual({
      type: 'reply',
      text: "Hi Ann! I'm the Support desk assistant.",
      quickReplies: { cannedResponseId: 'cr-main', buttons: [B1, B2, B3] },
    });
  });

  it('renders quick replies on SMS as numbered options in the text', () => {
    const actions = new Chat({ channel: 'twilio' }).say('hello');
    expect(reply(actions)).toEqual({
      type: 'reply',
      text: "Hi Ann! I'm the Support desk assistant.\n1. Opening hours\n2. Order status\n3. Talk to an agent\nReply with a number.",
    });
  });

  it('falls back to numbered options from the flow file when the canned response is missing', () => {
    const actions = new Chat({ channel: 'whatsapp', canned: [] }).say('hello');
    expect(reply(actions).quickReplies).toBeUndefined();
    expect(reply(actions).text).toContain('2. Order status');
  });

  it('greets and answers at once when the first message already asks something', () => {
    const actions = new Chat().say('What are your opening hours?');
    expect(replies(actions)).toHaveLength(2);
    expect(reply(actions, 0).quickReplies).toBeUndefined();
    expect(reply(actions, 1).text).toBe("We're open until 17:00. Our hours are Monday–Friday 09:00–17:00 (Brussels time).");
    expect(reply(actions, 1).quickReplies?.cannedResponseId).toBe('cr-main');
  });

  it('answers "Opening hours" from the live schedule, closed at the weekend', () => {
    const chat = new Chat({ start: Date.parse('2026-11-21T12:00:00Z') });
    chat.say('hi');
    expect(reply(chat.click(B1)).text).toBe(
      "We're closed right now. We're back Monday at 09:00. Our hours are Monday–Friday 09:00–17:00 (Brussels time).",
    );
  });

  it("trusts the service's live is_active over the calculator", () => {
    const chat = new Chat({
      hours: {
        schedule: { id: 1, name: 'x', timezone: 'Europe/Brussels', periods: [{ dayofweek: 1, start: '0900', end: '1700' }] },
        isActive: false,
      },
    });
    chat.say('hi');
    expect(kinds(chat.say('agent'))).toEqual(['reply', 'queue-escalation']);
  });
});

describe('quick reply selection', () => {
  it.each([
    ['2', 'twilio'],
    ['two', 'twilio'],
    ['Option 2', 'twilio'],
    ['#2', 'twilio'],
    ['order STATUS', 'twilio'],
    ['Order status', 'whatsapp'],
    ['ÓRDER status', 'web'],
  ] as const)('selects "Order status" from "%s" on %s', (text, channel) => {
    const chat = new Chat({ channel });
    chat.say('hello');
    expect(reply(chat.say(text)).text).toBe('What is your order number? It looks like AB-12345.');
  });

  it('does not read a bare number as a choice on a channel with native buttons', () => {
    const chat = new Chat({ channel: 'whatsapp' });
    chat.say('hello');
    expect(reply(chat.say('2')).text).toMatch(/didn't get that/);
  });

  it('does not select an option that does not exist', () => {
    const chat = new Chat({ channel: 'twilio' });
    chat.say('hello');
    expect(reply(chat.say('7')).text).toMatch(/didn't get that/);
  });
});

describe('value collection', () => {
  it('asks for an order number, re-asks on a bad one, and escalates with the value collected', () => {
    const chat = new Chat();
    chat.say('hello');
    expect(reply(chat.click(B2)).text).toMatch(/order number/);
    expect(reply(chat.say('it is 12345')).text).toMatch(/doesn't look like an order number/);
    const actions = chat.say('sure, ab-12345');
    expect(reply(actions).text).toBe('Thanks! A colleague will look up order AB-12345 and answer you here.');
    const esc = escalation(actions);
    expect(esc).toMatchObject({ reason: 'order_status', tags: ['bot-escalated', 'order'] });
    expect(esc?.packet.collected).toEqual({ order_number: 'AB-12345' });
    expect(esc?.packet.intent).toBe('order_status');
    expect(esc?.note).toContain('order_number=AB-12345');
  });

  it('gives up after the allowed attempts and runs on_fail', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.say('where is my parcel');
    chat.say('no idea');
    chat.say('still no idea');
    const actions = chat.say('nope');
    expect(reply(actions).text).toBe("I couldn't read an order number. Let's try something else:");
    expect(chat.state?.question).toBeUndefined();
  });

  it('lets the customer change the subject in the middle of a question', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.say('my order');
    expect(reply(chat.say('when are you open?')).text).toMatch(/^We're open until 17:00/);
    expect(chat.state?.question).toBeUndefined();
  });

  it('cancels a question on "never mind"', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.say('my order');
    expect(reply(chat.say('never mind')).text).toMatch(/leave that/);
    expect(chat.state?.question).toBeUndefined();
  });
});

describe('clicks on older messages', () => {
  it('understands an informational button from an older menu', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.click(B2);
    // The question replaced the menu; "Opening hours" from the greeting still means the same.
    expect(reply(chat.click(B1)).text).toMatch(/^We're open until/);
    expect(chat.state?.question).toBeUndefined();
  });

  it('honours "Talk to an agent" from an earlier menu of this stretch', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.click(B2);
    expect(escalation(chat.click(B3))?.reason).toBe('quick_reply');
  });

  it('does not replay an escalation button offered before the conversation went to agents and came back', () => {
    const flows = structuredClone(defaultFlows);
    const callMe = { id: 'x1', title: 'Call me back' };
    flows.menus.callback = { text: 'Want a call?', buttons: [{ ...callMe, then: { escalate: { reason: 'callback' } } }] };
    flows.intents.callback = {
      keywords: ['call'],
      phrases: [],
      patterns: [],
      examples: {},
      always_human: false,
      then: { menu: 'callback' },
    };
    const chat = new Chat({ flows });
    chat.say('hello');
    chat.say('can you call me');
    chat.click(B3);
    chat.event({ kind: 'agent-took-over' });
    chat.event({ kind: 'returned-to-bot', reason: 'resolved' });
    const actions = chat.click(callMe);
    expect(escalation(actions)).toBeUndefined();
    expect(reply(actions).text).toBe("That option is no longer available. Here's what I can help with now:");
    expect(reply(actions).quickReplies?.buttons).toEqual([B1, B2, B3]);
  });

  it('answers a click on a quick reply older than the stale limit politely', () => {
    const chat = new Chat();
    chat.say('hello');
    chat.now += 25 * 60 * 60_000;
    const actions = chat.click(B3);
    expect(escalation(actions)).toBeUndefined();
    expect(replies(actions)).toContain("That option is no longer available. Here's what I can help with now:");
  });

  it('answers a button no menu knows politely', () => {
    const chat = new Chat();
    chat.say('hello');
    expect(reply(chat.click({ id: 'zz', title: "Yesterday's offer" })).text).toMatch(/no longer available/);
  });

  it('reads an unmapped button of the current menu as its title', () => {
    const chat = new Chat({
      canned: [{ id: 'cr-main', name: 'Main menu', type: 'buttons', data: { buttons: [B1, { id: 'b9', title: 'Refund' }] } }],
    });
    chat.say('hello');
    expect(escalation(chat.click({ id: 'b9', title: 'Refund' }))?.reason).toBe('always_human');
  });
});
