import { describe, it, expect } from 'vitest';
import type { NluReading } from '../../src/bot/index.js';
import { parseFlows, FlowFileError } from '../../src/bot/index.js';
import { Chat, escalation, replies } from './bot-fixtures.js';

const reading = (intent: string, confidence: number, entities: NluReading['entities'] = []): NluReading => ({
  intent,
  confidence,
  entities,
});

function sayWith(chat: Chat, text: string, nlu: NluReading) {
  chat.transcript.push({ at: chat.now, from: 'customer', text });
  return chat.event({ kind: 'message', mentionId: `n${chat.now}`, text, nlu });
}

describe('intents read by an NLU server', () => {
  it('understands an intent the keywords miss when the NLU is confident', () => {
    const chat = new Chat();
    chat.say('hi');
    const actions = sayWith(chat, 'I would like my cash returned', reading('request_refund', 0.93));
    expect(escalation(actions)?.reason).toBe('always_human');
    expect(escalation(actions)?.packet.intent).toBe('refund');
  });

  it('falls back to the keywords below the threshold', () => {
    const chat = new Chat();
    chat.say('hi');
    const actions = sayWith(chat, 'what time do you close', reading('request_refund', 0.4));
    expect(escalation(actions)).toBeUndefined();
    expect(replies(actions)[0]).toMatch(/open until/);
  });

  it('fills a question from an entity, so the customer is not asked what they said', () => {
    const chat = new Chat();
    chat.say('hi');
    const actions = sayWith(chat, 'where is ab12345 please', reading('check_order', 0.88, [{ entity: 'order_number', value: 'ab-12345' }]));
    expect(replies(actions)[0]).toContain('order AB-12345');
    expect(escalation(actions)?.packet.collected).toEqual({ order_number: 'AB-12345' });
  });

  it('asks as usual when the entity does not fit the question', () => {
    const chat = new Chat();
    chat.say('hi');
    const actions = sayWith(chat, 'my order?', reading('check_order', 0.88, [{ entity: 'order_number', value: 'tomorrow' }]));
    expect(replies(actions)).toEqual(['What is your order number? It looks like AB-12345.']);
  });

  it("takes a pending question's answer from an entity where the pattern misses it", () => {
    const chat = new Chat();
    chat.say('hi');
    chat.say('where is my order');
    const actions = sayWith(chat, "it's ab 12345", reading('inform', 0.9, [{ entity: 'order_number', value: 'AB12345' }]));
    expect(escalation(actions)?.packet.collected).toEqual({ order_number: 'AB12345' });
  });

  it('refuses an intent to yield that the flows do not have', () => {
    expect(() =>
      parseFlows('greeting: { text: Hi }\nfallback: { text: Sorry }\nnlu:\n  embedded:\n    yielding: [thankz]\n', 'flows.yaml'),
    ).toThrow(/yielding.*no intent named "thankz"|no intent named "thankz"/s);
  });

  it('refuses a mapping to an intent the flows do not have', () => {
    expect(() =>
      parseFlows('greeting: { text: Hi }\nfallback: { text: Sorry }\nnlu:\n  intents:\n    greet: hello\n', 'flows.yaml'),
    ).toThrow(FlowFileError);
  });
});
