// The bot's understanding, measured in-process on a flow test file: training at start, time per message, memory.
// Run in a process of its own (bench/nlu.ts), so the resident-memory figures are the understanding's alone.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadLanguageGuesser, mayGuessLanguage } from '../../src/bot/index.js';
import { parseFlowTests } from '../../src/bot/flow-test-file.js';
import { loadUnderstanding } from '../../src/bridge/understanding-loader.js';
import { runFlowTests } from '../../src/cli/flow-test-run.js';
import { defaultTestFile } from '../../src/cli/test-flows-command.js';
import { loadFlowFile } from '../../src/settings/flow-file.js';
import { REPO_ROOT } from './child-process.js';
import { percentile } from './percentiles.js';

export interface NluFigures {
  /** The flow test file whose first messages were read. */
  nlu_test_file: string;
  nlu_messages: number;
  /** Per message, the NLU's reading (the embedded model trained from the flows), after a warm-up pass: p99 in ms. */
  nlu_ms_p99: number | null;
  nlu_ms_p50: number | null;
  /** Training the embedded NLU from the flows, as the bridge does at start, ms. */
  nlu_train_ms: number;
  /**
   * Growth of the process's peak resident memory that the NLU adds, MB: from the brain having read every message with
   * its keywords only (the baseline) to the NLU trained and every message read twice through it and the brain.
   */
  nlu_rss_growth_mb: number;
}

const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
const quiet = { info: () => undefined, warn: () => undefined };

export async function measureNlu(
  flowFile = join(REPO_ROOT, 'config/flows.yaml'),
  testFile = defaultTestFile(flowFile),
): Promise<NluFigures> {
  const flows = await loadFlowFile(flowFile);
  const tests = parseFlowTests(await readFile(testFile, 'utf8'), testFile);
  const languageGuesser = mayGuessLanguage(flows) ? await loadLanguageGuesser() : undefined;
  // The brain and the language detector first, without the NLU (keywords only), as a bridge without it would run:
  // their own growth (20–40 MB on this file, compiled code and a grown young generation) is not the NLU's.
  const messagesOnly = { ...tests, dialogues: [] };
  await runFlowTests({ flows, tests: messagesOnly, understander: undefined, languageGuesser });
  const baseline = peakRssMb();
  const started = performance.now();
  const understander = await loadUnderstanding(flows, undefined, quiet)();
  const trainMs = performance.now() - started;
  // First messages only (dialogue turns read the same way); one pass untimed, as a running bridge has read
  // messages before (the first calls compile the code and fill the caches).
  await runFlowTests({ flows, tests: messagesOnly, understander, languageGuesser });
  const readMs: number[] = [];
  await runFlowTests({ flows, tests: messagesOnly, understander, languageGuesser, onRead: (ms) => readMs.push(ms) });
  const round = (v: number | null, digits = 3) => (v === null ? null : Number(v.toFixed(digits)));
  return {
    nlu_test_file: testFile,
    nlu_messages: readMs.length,
    nlu_ms_p99: round(percentile(readMs, 99)),
    nlu_ms_p50: round(percentile(readMs, 50)),
    nlu_train_ms: Number(trainMs.toFixed(1)),
    nlu_rss_growth_mb: Number((peakRssMb() - baseline).toFixed(1)),
  };
}
