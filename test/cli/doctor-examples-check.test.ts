import { describe, expect, it } from 'vitest';
import type { Flows } from '../../src/bot/index.js';
import { examplesCheck, examplesShortOf } from '../../src/cli/doctor-examples-check.js';
import { defaultFlows } from '../bot/bot-fixtures.js';

describe("doctor's check of the flows' training examples", () => {
  it('passes the default flows, every intent with at least ten examples in each language', () => {
    const check = examplesCheck(defaultFlows);
    expect(check?.ok).toBe(true);
    expect(check?.detail).toContain('at least 10 examples each per language');
  });

  it('passes flows with fewer than ten examples in a language, naming them', () => {
    const cancel = defaultFlows.escalation.cancel;
    const flows: Flows = {
      ...defaultFlows,
      escalation: {
        ...defaultFlows.escalation,
        cancel: { ...cancel, examples: { ...cancel.examples, en: cancel.examples.en!.slice(0, 9) } },
      },
    };
    const check = examplesCheck(flows);
    expect(check?.ok).toBe(true);
    expect(check?.detail).toContain('cancel en 9');
  });

  it('fails naming the intent and language when an intent has almost no examples in a declared language', () => {
    const thanks = defaultFlows.intents.thanks!;
    const flows: Flows = {
      ...defaultFlows,
      intents: { ...defaultFlows.intents, thanks: { ...thanks, examples: { ...thanks.examples, fr: ['merci bien'] } } },
    };
    expect(examplesShortOf(flows, 5).some((s) => s.startsWith('thanks fr'))).toBe(true);
    const check = examplesCheck(flows);
    expect(check?.ok).toBe(false);
    expect(check?.detail).toMatch(/thanks fr 1/);
  });

  it('says nothing for flows that train no NLU', () => {
    const off: Flows = { ...defaultFlows, nlu: { ...defaultFlows.nlu, embedded: { ...defaultFlows.nlu.embedded, enabled: false } } };
    expect(examplesCheck(off)).toBeUndefined();
  });
});
