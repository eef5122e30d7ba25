import { describe, it, expect } from 'vitest';
import { OUTCOMES } from '../../src/bot/index.js';
import type { Flows, Outcome } from '../../src/bot/index.js';
import { B3, Chat, MONDAY_OPEN, SATURDAY_CLOSED, defaultFlows, escalation, kinds, replies } from './bot-fixtures.js';
import type { ChatOptions } from './bot-fixtures.js';

/** Flows whose every outcome text is its own name, so each test sees exactly which text was chosen. */
function taggedFlows(policy: Flows['escalation']['when_closed'] = 'queue'): Flows {
  const flows = structuredClone(defaultFlows);
  flows.escalation.when_closed = policy;
  for (const o of OUTCOMES) flows.escalation.texts[o] = `<${o}>`;
  return flows;
}

const closed = (policy: Flows['escalation']['when_closed']): ChatOptions => ({ flows: taggedFlows(policy), start: SATURDAY_CLOSED });

const scenarios: Record<Outcome, { opts: ChatOptions; run: (c: Chat) => string[] }> = {
  handover: { opts: { flows: taggedFlows() }, run: (c) => (c.say('hi'), replies(c.say('agent please'))) },
  busy: {
    opts: { flows: taggedFlows(), hours: { isActive: true, agentsAvailable: 0 } },
    run: (c) => (c.say('hi'), replies(c.say('agent please'))),
  },
  closed_queue: { opts: closed('queue'), run: (c) => (c.say('hi'), replies(c.say('agent please'))) },
  closed_take_message: { opts: closed('take_message'), run: (c) => (c.say('hi'), replies(c.say('agent please'))) },
  closed_continue: { opts: closed('continue'), run: (c) => (c.say('hi'), replies(c.say('agent please'))) },
  away_repeat: { opts: closed('continue'), run: (c) => (c.say('hi'), c.say('agent please'), replies(c.say('a human!'))) },
  message_taken: {
    opts: closed('take_message'),
    run: (c) => (c.say('hi'), c.say('agent please'), replies(c.say('My parcel never came, call me back'))),
  },
  released: {
    opts: closed('queue'),
    run: (c) => (c.say('hi'), c.say('agent please'), c.at(MONDAY_OPEN), replies(c.event({ kind: 'opening-time' }))),
  },
  already_pending: { opts: closed('queue'), run: (c) => (c.say('hi'), c.say('agent please'), replies(c.say('a human!'))) },
  cancelled: { opts: { flows: taggedFlows() }, run: (c) => (c.say('hi'), c.say('agent please'), replies(c.say('never mind'))) },
  nothing_to_cancel: { opts: { flows: taggedFlows() }, run: (c) => (c.say('hi'), replies(c.say('never mind'))) },
  failed: {
    opts: { flows: taggedFlows() },
    run: (c) => (c.say('hi'), c.say('agent please'), replies(c.event({ kind: 'escalation-failed', error: 'HTTP 503' }))),
  },
  returned: {
    opts: { flows: taggedFlows() },
    run: (c) => (
      c.say('hi'),
      c.say('agent please'),
      c.event({ kind: 'agent-took-over' }),
      replies(c.event({ kind: 'returned-to-bot', reason: 'idle' }))
    ),
  },
};

describe('escalation outcome texts', () => {
  it.each(OUTCOMES)('says the %s text', (outcome) => {
    const { opts, run } = scenarios[outcome];
    const texts = run(new Chat(opts));
    expect(texts[0]).toBe(`<${outcome}>`);
  });

  it('picks the reason text, then the channel text, then the default', () => {
    const web = new Chat({ channel: 'web' });
    web.say('hi');
    expect(replies(web.click(B3))[0]).toBe("I'm passing you to a colleague. They'll answer right here in this chat.");
    const sms = new Chat({ channel: 'twilio' });
    sms.say('hi');
    expect(replies(sms.say('agent'))[0]).toBe("I'm passing you to a colleague. They'll text you back here.");
    const unhappy = new Chat({ channel: 'twilio' });
    unhappy.say('hi', { sentiment: 'negative' });
    expect(replies(unhappy.say('hours?', { sentiment: 'negative' }))[0]).toMatch(/^I'm sorry this has been frustrating/);
    const back = new Chat();
    back.say('hi');
    back.say('agent');
    expect(replies(back.event({ kind: 'returned-to-bot', reason: 'resolved' }))[0]).toMatch(/^Glad we could help!/);
  });

  it('tells the customer out of hours when people are back, in words, and queues for that moment', () => {
    const chat = new Chat({ start: SATURDAY_CLOSED });
    chat.say('hi');
    const actions = chat.say('can I talk to a person');
    expect(replies(actions)[0]).toBe(
      "Our team is away right now. We're back Monday at 09:00, and a colleague will pick up your conversation then.",
    );
    expect(actions.find((a) => a.type === 'queue-escalation')).toEqual({
      type: 'queue-escalation',
      reason: 'explicit_request',
      releaseAt: Date.parse('2026-11-23T08:00:00Z'),
    });
    expect(chat.state?.mode).toBe('bot');
  });

  it('never sends the away message twice in one stretch', () => {
    const chat = new Chat({ flows: closed('continue').flows, start: SATURDAY_CLOSED });
    const sent: string[] = [];
    chat.say('hi');
    for (const text of ['agent', 'human please', 'someone real', 'refund']) sent.push(...replies(chat.say(text)));
    expect(sent.filter((t) => t === '<closed_continue>')).toHaveLength(1);
    // A new stretch (back from agents) may tell it again.
    chat.event({ kind: 'agent-took-over' });
    chat.event({ kind: 'returned-to-bot', reason: 'manager' });
    expect(replies(chat.say('agent'))).toContain('<closed_continue>');
  });

  it("passes the message taken out of hours on to the agents with the customer's words", () => {
    const chat = new Chat({ flows: closed('take_message').flows, start: SATURDAY_CLOSED });
    chat.say('hi');
    expect(kinds(chat.say('agent'))).toEqual(['reply']);
    const actions = chat.say('Please call me about invoice 42');
    expect(escalation(actions)?.packet.trigger).toBe('Please call me about invoice 42');
    expect(escalation(actions)?.reason).toBe('explicit_request');
  });

  it('releases a queued escalation at opening time, and does nothing when none was queued', () => {
    const chat = new Chat({ start: SATURDAY_CLOSED });
    chat.say('hi');
    chat.say('agent');
    chat.now = MONDAY_OPEN;
    const actions = chat.event({ kind: 'opening-time' });
    expect(kinds(actions)).toEqual(['reply', 'escalate']);
    expect(escalation(actions)?.reason).toBe('explicit_request');
    expect(kinds(chat.event({ kind: 'opening-time' }))).toEqual(['nothing']);
  });
});
