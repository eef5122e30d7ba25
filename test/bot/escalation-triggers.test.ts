import { describe, it, expect } from 'vitest';
import { parseFlows } from '../../src/bot/index.js';
import type { Action } from '../../src/bot/index.js';
import { B3, Chat, defaultFlows, escalation, flowText, kinds, replies } from './bot-fixtures.js';

interface Case {
  trigger: string;
  reason: string;
  priority: string;
  run: (chat: Chat) => Action[];
  tags?: string[];
  words: RegExp;
}

const cases: Case[] = [
  {
    trigger: 'the keyword "agent"',
    reason: 'explicit_request',
    priority: 'medium',
    run: (c) => c.say('Can I get an AGENT please'),
    words: /AGENT/,
  },
  {
    trigger: 'the keyword "human", accented and mixed case',
    reason: 'explicit_request',
    priority: 'medium',
    run: (c) => c.say('Un HÚMAN svp'),
    words: /HÚMAN/,
  },
  {
    trigger: 'the phrase "someone real"',
    reason: 'explicit_request',
    priority: 'medium',
    run: (c) => c.say('i want to talk to someone real!'),
    words: /someone real/,
  },
  {
    trigger: 'the "Talk to an agent" quick reply',
    reason: 'quick_reply',
    priority: 'medium',
    run: (c) => (c.say('hi'), c.click(B3)),
    words: /Talk to an agent/,
  },
  {
    trigger: 'two fallbacks in a row',
    reason: 'repeated_fallback',
    priority: 'medium',
    run: (c) => (c.say('hi'), c.say('blorp'), c.say('zxcv')),
    words: /zxcv/,
  },
  {
    trigger: 'negative sentiment twice in a row',
    reason: 'negative_sentiment',
    priority: 'high',
    run: (c) => (
      c.say('hi'), c.say('what are your hours', { sentiment: 'negative' }), c.say('your hours are awful', { sentiment: 'negative' })
    ),
    words: /awful/,
  },
  { trigger: 'the contact tag vip', reason: 'contact_tag', priority: 'high', run: (c) => c.say('hello'), tags: ['VIP'], words: /vip/i },
  {
    trigger: 'an always-human intent',
    reason: 'always_human',
    priority: 'medium',
    run: (c) => (c.say('hi'), c.say('I want a refund')),
    words: /refund/,
  },
];

describe('escalation triggers', () => {
  it.each(cases)('escalates on $trigger with reason $reason', ({ run, reason, priority, tags, words }) => {
    const chat = new Chat({ tags: tags ?? [] });
    const actions = run(chat);
    const esc = escalation(actions);
    expect(esc?.reason).toBe(reason);
    expect(esc?.priority).toBe(priority);
    expect(esc?.packet.trigger).toMatch(words);
    expect(esc?.tags).toContain('bot-escalated');
    // The customer is told before the handover; nothing is said after it.
    expect(kinds(actions).slice(-2)).toEqual(['reply', 'escalate']);
    expect(chat.state?.mode).toBe('escalated');
    expect(chat.state?.pendingEscalation).toMatchObject({ reason, status: 'handed-over' });
  });

  it('does not escalate on one fallback or one negative message', () => {
    const chat = new Chat();
    chat.say('hi');
    expect(kinds(chat.say('blorp'))).toEqual(['reply']);
    expect(kinds(chat.say('what are your hours', { sentiment: 'negative' }))).toEqual(['reply']);
    expect(kinds(chat.say('thanks', { sentiment: 'positive' }))).toEqual(['reply']);
  });

  it('resets the fallback count when a message is understood', () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('blorp');
    chat.say('opening hours?');
    expect(escalation(chat.say('zxcv'))).toBeUndefined();
  });

  it('does not read "personal" as the keyword "person"', () => {
    const chat = new Chat();
    chat.say('hi');
    expect(escalation(chat.say('my personal order'))).toBeUndefined();
  });

  it('escalates a vip only once, not again after the conversation came back', () => {
    const chat = new Chat({ tags: ['vip'] });
    expect(escalation(chat.say('hello'))?.reason).toBe('contact_tag');
    chat.event({ kind: 'agent-took-over' });
    chat.event({ kind: 'returned-to-bot', reason: 'resolved' });
    expect(escalation(chat.say('what are your opening hours'))).toBeUndefined();
  });

  it.each([
    ['explicit_request', ['hi'], 'Can I get an agent'],
    ['repeated_fallback', ['hi', 'blorp'], 'zxcv'],
    ['always_human', ['hi'], 'refund please'],
  ] as const)('can switch off %s', (trigger, before, text) => {
    const on = new Chat();
    for (const t of before) on.say(t);
    expect(escalation(on.say(text))?.reason).toBe(trigger);
    const flows = structuredClone(defaultFlows);
    flows.escalation.triggers[trigger].enabled = false;
    const off = new Chat({ flows });
    for (const t of before) off.say(t);
    expect(escalation(off.say(text))).toBeUndefined();
  });

  it('gives each trigger its configured priority', () => {
    const flows = structuredClone(defaultFlows);
    flows.escalation.triggers.quick_reply.priority = 'critical';
    const chat = new Chat({ flows });
    chat.say('hi');
    expect(escalation(chat.click(B3))?.priority).toBe('critical');
  });

  it('can switch off the quick reply trigger, answering the click with the fallback', () => {
    const flows = parseFlows(flowText.replace(/quick_reply:(.*)\n(\s+)enabled: true/, 'quick_reply:$1\n$2enabled: false'), 'f.yaml');
    expect(flows.escalation.triggers.quick_reply.enabled).toBe(false);
    const chat = new Chat({ flows });
    chat.say('hi');
    const actions = chat.click(B3);
    expect(escalation(actions)).toBeUndefined();
    expect(replies(actions)[0]).toMatch(/didn't get that/);
  });
});
