// doctor: the flows' training examples, enough of them per intent and declared language for the NLU to learn from.
import { flowLanguages, trainingSetOf, type Flows } from '../bot/index.js';
import { fail, pass, type Check } from './doctor-checklist.js';

/** Below this many examples in a declared language an intent is reported: a classifier needs variety to generalise. */
export const FEW_EXAMPLES = 10;
/** Below this many the line fails: the model cannot learn the intent in that language, and keywords alone decide. */
export const TOO_FEW_EXAMPLES = 5;

const NAME = 'intents have enough examples';
const SHOWN: Record<string, string> = { _person: 'explicit_request', _cancel: 'cancel', _none: 'out_of_scope' };

/** Each intent and declared language with fewer than `min` examples, as `intent language count`. */
export function examplesShortOf(flows: Flows, min: number): string[] {
  const languages = flowLanguages(flows);
  const short: string[] = [];
  for (const [intent, byLanguage] of Object.entries(trainingSetOf(flows).intents))
    for (const language of languages) {
      const n = byLanguage[language]?.length ?? 0;
      if (n < min) short.push(`${SHOWN[intent] ?? intent} ${language} ${n}`);
    }
  return short;
}

/** Nothing for flows without examples (keywords only); else a line naming the intents short of examples per language. */
export function examplesCheck(flows: Flows): Check | undefined {
  const intents = Object.keys(trainingSetOf(flows).intents);
  if (intents.length === 0 || !flows.nlu.embedded.enabled) return undefined;
  const tooFew = examplesShortOf(flows, TOO_FEW_EXAMPLES);
  if (tooFew.length > 0)
    return fail(NAME, `fewer than ${TOO_FEW_EXAMPLES} examples (intent language count): ${tooFew.join('; ')}; add examples or keywords`);
  const few = examplesShortOf(flows, FEW_EXAMPLES);
  return pass(
    NAME,
    few.length === 0
      ? `${intents.length} intents, at least ${FEW_EXAMPLES} examples each per language`
      : `${intents.length} intents; fewer than ${FEW_EXAMPLES} examples, so understood less well: ${few.join('; ')}`,
  );
}
