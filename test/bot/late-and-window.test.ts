import { describe, it, expect } from 'vitest';
import { Chat, SATURDAY_CLOSED, defaultFlows, escalation, kinds, replies } from './bot-fixtures.js';

let seq = 0;
const late = (chat: Chat, text: string) => chat.event({ kind: 'message', mentionId: `late${++seq}`, text, late: true });

describe('a message answered after the maximum reply age', () => {
  it('gets one apology turn for the whole backlog, with the main menu, and the rest is taken in silently', () => {
    const chat = new Chat();
    const first = late(chat, 'hello?');
    expect(replies(first)).toEqual([defaultFlows.conversation.late_apology]);
    expect(kinds(late(chat, 'is anyone there'))).toEqual(['nothing']);
    expect(kinds(late(chat, 'I want a refund'))).toEqual(['nothing']);
    // A live message afterwards is answered as usual.
    expect(kinds(chat.say('agent'))).toContain('escalate');
  });

  it('apologises again after a later backlog, once the customer wrote live in between', () => {
    const chat = new Chat();
    late(chat, 'hello?');
    chat.say('hi');
    expect(replies(late(chat, 'hello again?'))).toEqual([defaultFlows.conversation.late_apology]);
  });

  it('forgets a question asked before the delay', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.state = { ...chat.state!, question: { name: 'order_number', attempts: 0, askedAt: chat.now } };
    late(chat, '12345');
    expect(chat.state?.question).toBeUndefined();
  });

  it('goes to people when the flows say so', () => {
    const chat = new Chat({ flows: { ...defaultFlows, conversation: { ...defaultFlows.conversation, late_reply: 'people' } } });
    const actions = late(chat, 'hello?');
    expect(escalation(actions)?.reason).toBe('late');
    expect(chat.state?.mode).toBe('escalated');
  });

  it('is not answered at all while people own the conversation', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    expect(kinds(late(chat, 'hello?'))).toEqual(['nothing']);
  });
});

describe("the channel's customer-service window", () => {
  it('hands a message the bot would answer to people, with a note that says why, and sends nothing', () => {
    const chat = new Chat();
    const actions = chat.event({ kind: 'message', mentionId: 'w1', text: 'hi', late: true }, { serviceWindowClosed: true });
    expect(replies(actions)).toEqual([]);
    const esc = escalation(actions);
    expect(esc?.reason).toBe('service_window');
    expect(esc?.note).toMatch(/customer-service window is closed/);
  });

  it('hands over even out of hours, without the "we are closed" text', () => {
    const chat = new Chat({ start: SATURDAY_CLOSED });
    const actions = chat.event({ kind: 'message', mentionId: 'w2', text: 'agent' }, { serviceWindowClosed: true });
    expect(replies(actions)).toEqual([]);
    expect(escalation(actions)).toBeDefined();
  });

  it('keeps a "back with the assistant" turn silent instead of handing the contact back to people', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    const actions = chat.event({ kind: 'returned-to-bot', reason: 'resolved' }, { serviceWindowClosed: true });
    expect(kinds(actions)).toEqual(['nothing']);
    expect(chat.state?.mode).toBe('bot');
  });

  it('changes nothing while the window is open', () => {
    const chat = new Chat();
    expect(replies(chat.event({ kind: 'message', mentionId: 'w3', text: 'hi' }, { serviceWindowClosed: false })).length).toBeGreaterThan(0);
  });
});
