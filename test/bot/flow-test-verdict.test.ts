import { describe, expect, it } from 'vitest';
import { freshState, type Action, type DialogState } from '../../src/bot/index.js';
import { turnOutcome } from '../../src/bot/flow-test-verdict.js';
import { expectedHandover, scoreFlowTests, type CheckedTurn } from '../../src/bot/flow-test-score.js';
import { defaultFlows } from './bot-fixtures.js';

const state = (patch: Partial<DialogState> = {}): DialogState => ({ ...freshState(0), language: 'en', ...patch });
const escalate = (reason: string, intent?: string): Action =>
  ({
    type: 'escalate',
    priority: 'medium',
    tags: [],
    note: 'n',
    packet: {
      reason,
      trigger: 'x',
      ...(intent ? { intent } : {}),
      collected: {},
      sentimentTrend: 'unknown',
      sentiments: [],
      summary: 's',
      channel: 'web',
      stretchStartedAt: 0,
      transcript: [],
      omittedLines: 0,
    },
  }) as unknown as Action;
const reply: Action = { type: 'reply', text: 'hi' };

describe('the label of what the bot did with a turn', () => {
  it('is human for a hand-over on the customer request, in words or by button', () => {
    expect(turnOutcome(defaultFlows, undefined, [reply, escalate('explicit_request')], state()).intent).toBe('human');
    expect(turnOutcome(defaultFlows, undefined, [escalate('quick_reply')], state()).intent).toBe('human');
  });

  it('is the intent of an always-human hand-over, and none for anger or repeated misunderstanding', () => {
    const out = turnOutcome(defaultFlows, undefined, [escalate('always_human', 'refund')], state());
    expect(out).toMatchObject({ intent: 'refund', handover: true });
    expect(turnOutcome(defaultFlows, undefined, [escalate('negative_sentiment', 'thanks')], state()).intent).toBe('none');
    expect(turnOutcome(defaultFlows, undefined, [escalate('repeated_fallback')], state()).intent).toBe('none');
  });

  it('is cancel when a pending request for people is called off', () => {
    const before = state({
      pendingEscalation: { reason: 'explicit_request', words: 'agent', priority: 'medium', tags: [], since: 0, status: 'handed-over' },
    });
    expect(turnOutcome(defaultFlows, before, [{ type: 'cancel-escalation', reason: 'explicit_request' }, reply], state()).intent).toBe(
      'cancel',
    );
  });

  it('is none when the bot did not understand, and the intent it acted on otherwise', () => {
    expect(turnOutcome(defaultFlows, state(), [reply], state({ fallbacks: 1 })).intent).toBe('none');
    const asked = state({ lastIntent: 'order_status', question: { name: 'order_number', attempts: 0, askedAt: 0 } });
    expect(turnOutcome(defaultFlows, state(), [reply], asked)).toMatchObject({ intent: 'order_status', handover: false, language: 'en' });
    expect(turnOutcome(defaultFlows, state(), [reply], state()).intent).toBe('none');
  });

  it('reads the answer language from the conversation, and the values it kept', () => {
    const out = turnOutcome(defaultFlows, state(), [reply], state({ language: 'nl', collected: { order_number: 'AB-12345' } }));
    expect(out.language).toBe('nl');
    expect(out.entities).toEqual({ order_number: 'AB-12345' });
  });
});

describe('the flow test score', () => {
  const turn = (intent: string, got: string, handover = false): CheckedTurn => ({
    source: 'message',
    category: 'plain',
    expected: { say: 'x', intent, lang: 'en', handover: expectedHandover({ say: 'x', intent }, new Set(['refund'])) },
    got: { intent: got, handover, language: 'en', entities: {} },
  });

  it('expects people for a person and always-human intents, nobody for none, and leaves value-giving turns open', () => {
    expect(expectedHandover({ say: 'x', intent: 'human' }, new Set())).toBe(true);
    expect(expectedHandover({ say: 'x', intent: 'refund' }, new Set(['refund']))).toBe(true);
    expect(expectedHandover({ say: 'x', intent: 'none' }, new Set())).toBe(false);
    expect(expectedHandover({ say: 'x', intent: 'order_status', entities: { order_number: 'AB-12345' } }, new Set())).toBeUndefined();
  });

  it('counts person recall on hand-overs and precision on what it took for a request, and names the thresholds missed', () => {
    const s = scoreFlowTests(
      [turn('human', 'human', true), turn('human', 'none', false), turn('thanks', 'human', true), turn('thanks', 'thanks')],
      { person_recall: 0.9, intent: 0.5 },
    );
    expect(s.person_recall).toEqual({ right: 1, of: 2, share: 0.5 });
    expect(s.person_precision).toEqual({ right: 1, of: 2, share: 0.5 });
    expect(s.intent.share).toBe(0.5);
    expect(s.below).toEqual(['person_recall: 0.500 < 0.9']);
    expect(s.confusion).toEqual([
      { expected: 'human', got: 'none', count: 1 },
      { expected: 'thanks', got: 'human', count: 1 },
    ]);
  });
});
