import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { decide, decisionSchema, parseFlows, CHANNELS } from '../../src/bot/index.js';
import type { BotEvent, Button, DecideInput, DialogState } from '../../src/bot/index.js';
import { B1, B2, B3, MONDAY_OPEN, defaultFlows, mainMenu, supportDesk } from './bot-fixtures.js';

const minimalFlows = parseFlows('greeting:\n  text: Hi\nfallback:\n  text: Sorry\n', 'minimal.yaml');

const words = fc.constantFrom(
  'agent',
  'never mind',
  'cancel',
  '2',
  'two',
  'seven',
  'ab-12345',
  'AB12345',
  'opening hours',
  'refund',
  'someone real',
  'thanks',
  'Où est ma commande ?',
  '',
  '   ',
  '{name}',
  '\u0000',
  '😀',
  'order',
  'option 3',
);
const text = fc.oneof(words, fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const button: fc.Arbitrary<Button> = fc.oneof(
  fc.constantFrom(B1, B2, B3),
  fc.record({ id: fc.string({ minLength: 1, maxLength: 5 }), title: fc.string({ maxLength: 10 }) }),
);
const sentiment = fc.option(fc.oneof(fc.constantFrom('negative', 'positive', 'neutral', 'NEGATIVE', 'weird'), fc.double()), {
  nil: undefined,
});

const event: fc.Arbitrary<BotEvent> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('message' as const),
      mentionId: fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10'),
      text,
      clicked: fc.option(fc.array(button, { maxLength: 2 }), { nil: undefined }),
      sentiment,
    }),
  },
  fc.record({ kind: fc.constant('returned-to-bot' as const), reason: fc.constantFrom('resolved', 'idle', 'x') }),
  fc.constant({ kind: 'agent-took-over' as const }),
  fc.constant({ kind: 'opening-time' as const }),
  fc.constant({ kind: 'escalation-failed' as const }),
);

const hours = fc.constantFrom<DecideInput['hours']>(
  undefined,
  { schedule: supportDesk },
  { schedule: supportDesk, isActive: false },
  { isActive: true, agentsAvailable: 0 },
  { schedule: { ...supportDesk, periods: [] } },
  { schedule: { ...supportDesk, timezone: 'Bad/Zone' } },
);

const step = fc.record({
  event,
  advanceMs: fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 3 * 86_400_000 })),
  owner: fc.constantFrom<DecideInput['owner']>(undefined, undefined, 'bot', 'agents'),
  hours,
});

describe('the brain under any input', () => {
  it('never throws and always returns a valid decision that respects ownership', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(defaultFlows, minimalFlows),
        fc.constantFrom(...CHANNELS),
        fc.array(fc.constantFrom('vip', 'other'), { maxLength: 2 }),
        fc.array(step, { minLength: 1, maxLength: 14 }),
        (flows, channel, tags, steps) => {
          let state: DialogState | undefined;
          let now = MONDAY_OPEN - 5 * 86_400_000;
          for (const s of steps) {
            now += s.advanceMs;
            const before = state;
            const given = structuredClone(state);
            const d = decide({
              flows,
              event: s.event,
              conversation: state,
              contact: { name: 'Zoë', tags },
              channel,
              now,
              hours: s.hours,
              cannedResponses: [mainMenu],
              owner: s.owner,
              transcript: [{ at: now - 1, from: 'customer', text: 'x' }],
            });
            const parsed = decisionSchema.safeParse(d);
            if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
            expect(JSON.parse(JSON.stringify(d.state))).toEqual(d.state);
            // The caller's state is never changed, whatever the turn did to its own.
            expect(state).toEqual(given);
            const types = d.actions.map((a) => a.type);
            for (const a of d.actions) {
              if (a.type === 'nothing') {
                expect(d.actions).toHaveLength(1);
                expect(a.why).not.toMatch(/could not decide/);
              }
              if (a.type === 'escalate')
                expect(new TextEncoder().encode(a.note).length).toBeLessThanOrEqual(flows.conversation.note_max_bytes);
              if (a.type === 'reply' && channel === 'twilio') expect(a.quickReplies).toBeUndefined();
            }
            // Never a reply after handing over in the same decision.
            const esc = types.indexOf('escalate');
            if (esc >= 0) expect(types.slice(esc + 1)).not.toContain('reply');
            // Silent while a person owns it, unless the bridge says the bot owns it again or gave it back.
            const gaveBack = s.event.kind === 'returned-to-bot' || s.owner === 'bot';
            if (before?.mode === 'agents' && !gaveBack) expect(types).not.toContain('reply');
            // While waiting for an agent, only a cancellation may speak, and it comes first.
            if (before?.mode === 'escalated' && !gaveBack && types.includes('reply') && s.event.kind === 'message') {
              expect(types[0]).toBe('cancel-escalation');
            }
            state = d.state;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
