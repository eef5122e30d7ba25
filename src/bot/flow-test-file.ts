// The flow test file (`flows.test.yaml` beside the flows): conversation tests that say what the flows should do
// with customers' own words. Held out from training: the NLU learns from the flows' `examples` only.
import { z } from 'zod';
import { FlowFileError, dotted, lineOf, parseYamlFile } from './parse-flows.js';

/** What a customer's message should lead to: an intent of the flows, a request for a person, or nothing covered. */
export const FLOW_TEST_LABELS = ['human', 'cancel', 'none'] as const;

const entities = z.record(z.string(), z.string().min(1));
const language = z.string().regex(/^[a-z]{2,3}$/, 'a language code such as en, nl or fr');

const expectation = {
  intent: z.string().min(1).optional(),
  lang: language.optional(),
  handover: z.boolean().optional(),
  entities: entities.optional(),
  sentiment: z.enum(['negative', 'neutral', 'positive']).optional(),
};

const message = z.object({ text: z.string().min(1), category: z.string().min(1).default('plain'), ...expectation }).strict();
const turn = z.object({ say: z.string().min(1), ...expectation }).strict();
const dialogue = z.object({ name: z.string().min(1), lang: language.optional(), turns: z.array(turn).min(1) }).strict();
const share = z.number().min(0).max(1);

export const flowTestFileSchema = z
  .object({
    thresholds: z
      .object({
        intent: share.optional(),
        person_recall: share.optional(),
        person_precision: share.optional(),
        language: share.optional(),
        entities: share.optional(),
        dialogues: share.optional(),
      })
      .strict()
      .default({}),
    messages: z.array(message).default([]),
    dialogues: z.array(dialogue).default([]),
  })
  .strict()
  .refine((f) => f.messages.length + f.dialogues.length > 0, 'a flow test file needs messages or dialogues');

export type FlowTestFile = z.infer<typeof flowTestFileSchema>;
export type FlowTestMessage = FlowTestFile['messages'][number];
export type FlowTestDialogue = FlowTestFile['dialogues'][number];
export type FlowTestThresholds = FlowTestFile['thresholds'];
/** One turn to check: a first message is a dialogue of one turn. */
export interface FlowTestTurn {
  say: string;
  intent?: string | undefined;
  lang?: string | undefined;
  handover?: boolean | undefined;
  entities?: Record<string, string> | undefined;
}

/** Parses a flow test file (YAML or JSON); every problem names the file, the path and the line, like the flow file. */
export function parseFlowTests(text: string, fileName: string): FlowTestFile {
  const { doc, counter } = parseYamlFile(text, fileName, 'flow test file');
  const parsed = flowTestFileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    throw new FlowFileError(
      fileName,
      parsed.error.issues.map((issue) => {
        const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
        const line = lineOf(doc, counter, path);
        return { path: dotted(path), message: issue.message, ...(line !== undefined ? { line } : {}) };
      }),
      'flow test file',
    );
  }
  return parsed.data;
}
