import { describe, it, expect } from 'vitest';
import { decide, type freshState } from '../../src/bot/index.js';
import { B3, Chat, MONDAY_OPEN, SATURDAY_CLOSED, defaultFlows, escalation, kinds, replies } from './bot-fixtures.js';

describe('cancelling an escalation', () => {
  it('calls off a handover nobody took yet: cancel first, then the reply', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.click(B3);
    const actions = chat.say('Never mind!');
    expect(actions[0]).toEqual({ type: 'cancel-escalation', reason: 'quick_reply' });
    expect(kinds(actions)).toEqual(['cancel-escalation', 'reply']);
    expect(chat.state?.mode).toBe('bot');
    expect(chat.state?.pendingEscalation).toBeUndefined();
  });

  it('calls off a queued escalation, so opening time releases nothing', () => {
    const chat = new Chat({ start: SATURDAY_CLOSED });
    chat.say('hi');
    chat.say('agent');
    expect(kinds(chat.say('forget it'))).toEqual(['cancel-escalation', 'reply']);
    chat.now = MONDAY_OPEN;
    expect(kinds(chat.event({ kind: 'opening-time' }))).toEqual(['nothing']);
  });

  it('cannot cancel once an agent took the conversation, and stays silent', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    expect(chat.say('never mind')).toEqual([{ type: 'nothing', why: 'a person owns the conversation' }]);
  });

  it('calls off a handover with a phrase in a short clause of its own ("oh never mind, I found it myself")', () => {
    for (const words of ['oh never mind, I found it myself', 'nee hoeft niet meer, ik heb het al gevonden']) {
      const chat = new Chat();
      chat.say('hi');
      chat.click(B3);
      expect(chat.say(words)[0], words).toEqual({ type: 'cancel-escalation', reason: 'quick_reply' });
    }
  });

  it('calls off a pending handover when the customer refuses a person ("I don\'t need an agent anymore")', () => {
    for (const words of ["actually I don't need an agent anymore, sorry", 'sorry, ik heb toch geen medewerker meer nodig']) {
      const chat = new Chat();
      chat.say('hi');
      chat.click(B3);
      expect(chat.say(words)[0], words).toEqual({ type: 'cancel-escalation', reason: 'quick_reply' });
    }
  });

  it('does not take "cancel my order" for a cancellation', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    expect(kinds(chat.say('cancel my order'))).toEqual(['nothing']);
    expect(chat.state?.mode).toBe('escalated');
  });
});

describe('while people own the conversation', () => {
  it('says nothing while waiting for an agent, whatever the customer writes', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    for (const text of ['hello?', 'agent', 'blorp', '2']) expect(kinds(chat.say(text))).toEqual(['nothing']);
  });

  it('follows the bridge when it reports agents as owner (implicit takeover)', () => {
    const chat = new Chat();
    chat.say('hi');
    expect(kinds(chat.say('opening hours?', { owner: 'agents' }))).toEqual(['nothing']);
    expect(chat.state?.mode).toBe('agents');
  });

  it('keeps waiting when the bridge still reports the bot as owner just after the escalation (handover in flight)', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    expect(kinds(chat.say('hello?', { owner: 'bot' }))).toEqual(['nothing']);
    expect(chat.state?.mode).toBe('escalated');
    chat.now += 10 * 60_000;
    expect(replies(chat.say('anyone?', { owner: 'bot' }))[0]).toMatch(/back with the assistant/);
  });

  it('resumes with a "back with the assistant" turn when the bridge reports the bot as owner again', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    const actions = chat.say('opening hours?', { owner: 'bot' });
    expect(replies(actions)[0]).toMatch(/back with the assistant/);
    expect(replies(actions)[1]).toMatch(/^We're open until 17:00/);
  });
});

describe('returning to the bot', () => {
  it('answers a return with a "back with the assistant" turn and the main menu, starting a new stretch', () => {
    // The satisfaction question that may follow is the survey tests' subject.
    const chat = new Chat({ flows: { ...defaultFlows, survey: { ...defaultFlows.survey, type: 'off' } } });
    chat.say('hi');
    chat.say('blorp');
    chat.say('agent');
    chat.event({ kind: 'agent-took-over' });
    const before = chat.now;
    const actions = chat.event({ kind: 'returned-to-bot', reason: 'idle' });
    expect(actions).toEqual([
      {
        type: 'reply',
        text: "You're back with the assistant. Is there anything else I can help with?",
        quickReplies: expect.objectContaining({ cannedResponseId: 'cr-main' }),
      },
    ]);
    expect(chat.state).toMatchObject({ mode: 'bot', fallbacks: 0, stretchStartedAt: before, awaySentInStretch: false });
  });

  it('does not say "back with the assistant" twice after the customer cancelled', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    chat.say('never mind');
    expect(chat.event({ kind: 'returned-to-bot', reason: 'cancelled' })).toEqual([
      { type: 'nothing', why: 'the bot already has the conversation' },
    ]);
  });

  it('gives the conversation back to the bot when the handover fails, and says so', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('agent');
    const actions = chat.event({ kind: 'escalation-failed', error: 'server_error' });
    expect(replies(actions)[0]).toMatch(/couldn't reach a colleague/);
    expect(chat.state?.mode).toBe('bot');
    expect(escalation(chat.say('agent please'))?.reason).toBe('explicit_request');
  });

  it('greets again after a day of silence', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.now += 2 * 86_400_000;
    expect(replies(chat.say('hello again'))[0]).toBe("Hi Ann! I'm the Support desk assistant.");
  });
});

describe('robustness', () => {
  const base = { flows: defaultFlows, contact: { tags: [] }, channel: 'web' as const, now: MONDAY_OPEN };

  it('does nothing for a mention it already handled (redelivery)', () => {
    const first = decide({ ...base, event: { kind: 'message', mentionId: 'm1', text: 'agent' }, conversation: undefined });
    const again = decide({ ...base, event: { kind: 'message', mentionId: 'm1', text: 'agent' }, conversation: first.state });
    expect(again.actions).toEqual([{ type: 'nothing', why: 'mention m1 was already handled' }]);
    expect(again.state).toEqual(first.state);
  });

  it('starts afresh from a state it cannot read instead of failing', () => {
    const broken = { v: 99, mode: 'confused' } as unknown as ReturnType<typeof freshState>;
    const d = decide({ ...base, event: { kind: 'message', mentionId: 'm1', text: 'hi' }, conversation: broken });
    expect(d.state.v).toBe(1);
    expect(kinds(d.actions)).toEqual(['reply']);
  });

  it("leaves the caller's state object untouched", () => {
    const first = decide({ ...base, event: { kind: 'message', mentionId: 'm1', text: 'hi' }, conversation: undefined });
    const copy = structuredClone(first.state);
    decide({ ...base, event: { kind: 'message', mentionId: 'm2', text: 'agent' }, conversation: first.state });
    expect(first.state).toEqual(copy);
  });

  it('uses no name when the contact has none', () => {
    const d = decide({ ...base, event: { kind: 'message', mentionId: 'm1', text: 'hi' }, conversation: undefined });
    expect(replies(d.actions)[0]).toMatch(/^Hi! I'm the Support desk assistant\.\n1\. Opening hours/);
  });

  it('treats a schedule with an unknown time zone as unknown hours, without failing', () => {
    const d = decide({
      ...base,
      hours: { schedule: { id: 1, name: 'x', timezone: 'Nowhere/Land', periods: [] } },
      event: { kind: 'message', mentionId: 'm1', text: 'opening hours?' },
      conversation: undefined,
    });
    expect(replies(d.actions)[1]).toMatch(/can't see our opening hours/);
    expect(d.actions[0]).not.toHaveProperty('why');
  });
});

describe('a new conversation after a long silence', () => {
  it("forgets collected values and counts the first message's sentiment", () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('my order');
    chat.say('AB-12345');
    chat.event({ kind: 'agent-took-over' });
    chat.event({ kind: 'returned-to-bot', reason: 'resolved' });
    expect(chat.state?.collected).toEqual({ order_number: 'AB-12345' });
    chat.now += 3 * 86_400_000;
    chat.say('hello', { sentiment: 'negative' });
    expect(chat.state?.collected).toEqual({});
    expect(chat.state?.sentiments).toEqual(['negative']);
  });
});
