// What the embedded NLU learns from the flows: each intent's examples per language, and the two things a customer
// may say at any time, asking for a person and calling a request off (under names no flow intent can have).
import type { Flows } from './flow-schema.js';
import { flowLanguages } from './choose-language.js';

/** The NLU's name for a request for a person (escalation.triggers.explicit_request.examples). */
export const PERSON_INTENT = '_person';
/** The NLU's name for "never mind" (escalation.cancel.examples). */
export const CANCEL_INTENT = '_cancel';
/** The NLU's name for what the flows do not cover (nlu.out_of_scope). */
export const NONE_INTENT = '_none';

export interface TrainingSet {
  /** Example utterances by intent, then by language. */
  intents: Record<string, Record<string, string[]>>;
  /** Intents that yield to another one said in the same message (nlu.embedded.yielding). */
  yielding: string[];
}

export function trainingSetOf(flows: Flows): TrainingSet {
  const intents: TrainingSet['intents'] = {};
  for (const [name, intent] of Object.entries(flows.intents)) intents[name] = intent.examples;
  intents[PERSON_INTENT] = flows.escalation.triggers.explicit_request.examples;
  intents[CANCEL_INTENT] = flows.escalation.cancel.examples;
  intents[NONE_INTENT] = flows.nlu.out_of_scope;
  for (const [name, examples] of Object.entries(intents)) {
    if (Object.values(examples).every((xs) => xs.length === 0)) delete intents[name];
  }
  return { intents, yielding: [...flows.nlu.embedded.yielding] };
}

/** Where the flows give a declared language no examples (allowed: that language relies on keywords there). */
export function missingExamples(flows: Flows): string[] {
  const languages = flowLanguages(flows);
  const places: Array<[string, Record<string, string[]>]> = [
    ...Object.entries(flows.intents).map(([n, i]): [string, Record<string, string[]>] => [`intents.${n}.examples`, i.examples]),
    ['escalation.triggers.explicit_request.examples', flows.escalation.triggers.explicit_request.examples],
    ['escalation.cancel.examples', flows.escalation.cancel.examples],
  ];
  const gaps: string[] = [];
  for (const [path, examples] of places) {
    const missing = languages.filter((l) => (examples[l] ?? []).length === 0);
    if (missing.length > 0 && missing.length < languages.length) gaps.push(`${path}: no examples in ${missing.join(', ')}`);
    else if (missing.length === languages.length && !path.startsWith('escalation.cancel')) gaps.push(`${path}: no examples`);
  }
  return gaps;
}
