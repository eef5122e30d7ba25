// Held out means held out: a test sentence that is also one of the flows' examples measures memory, not understanding.
import type { FlowTestFile } from './flow-test-file.js';
import type { Flows } from './flow-schema.js';
import { foldText } from '../shared/fold-text.js';
import { trainingSetOf } from './training-set.js';

/** The test sentences (as written) that are also training examples of the flows, compared folded (case, accents, punctuation). */
export function overlapWithExamples(flows: Flows, tests: FlowTestFile): string[] {
  const examples = new Set<string>();
  for (const byLanguage of Object.values(trainingSetOf(flows).intents))
    for (const list of Object.values(byLanguage)) for (const e of list) examples.add(foldText(e));
  const sentences = [...tests.messages.map((m) => m.text), ...tests.dialogues.flatMap((d) => d.turns.map((t) => t.say))];
  return [...new Set(sentences.filter((s) => examples.has(foldText(s))))];
}
