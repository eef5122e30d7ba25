import { readFile } from 'node:fs/promises';
import { dirname, extname, basename, join, resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { FlowFileError, loadLanguageGuesser, mayGuessLanguage, type Flows } from '../bot/index.js';
import { parseFlowTests } from '../bot/flow-test-file.js';
import { scoreFlowTests } from '../bot/flow-test-score.js';
import { overlapWithExamples } from '../bot/flow-test-overlap.js';
import { loadUnderstanding } from '../bridge/understanding-loader.js';
import { describeFlowFile, loadFlowFile, locateFlowFile } from '../settings/flow-file.js';
import { createLogger } from '../log.js';
import { nluClientOf } from './bridge-options.js';
import { runFlowTests } from './flow-test-run.js';
import { renderFlowTestReport } from './flow-test-report.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

/** `config/flows.yaml` → `config/flows.test.yaml`: the test file beside the flows. */
export function defaultTestFile(flowFile: string): string {
  const ext = extname(flowFile);
  return join(dirname(flowFile), `${basename(flowFile, ext)}.test${ext || '.yaml'}`);
}

/**
 * `engage-bridge test-flows [FILE]`: runs the conversation tests through the brain as the bridge would, prints the
 * scores and every failure; exit 1 below a threshold of the file, 2 when the flows or the test file are invalid.
 */
export async function testFlowsCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = loadConfig({ cwd: io.cwd, env: io.env, configFile: args.values.config as string | undefined });
  const flowsArg = args.values.flows as string | undefined;
  const location = flowsArg
    ? { path: resolve(io.cwd, flowsArg), source: 'setting' as const }
    : locateFlowFile(config.bridge.flowFile, io.cwd);
  const testPath = resolve(io.cwd, args.positionals[0] ?? defaultTestFile(location.path));
  let flows: Flows;
  let text: string;
  try {
    flows = await loadFlowFile(location.path);
    text = await readFile(testPath, 'utf8');
  } catch (err) {
    io.stderr(`engage-bridge test-flows: ${(err as Error).message}\n`);
    return 2;
  }
  let tests: ReturnType<typeof parseFlowTests>;
  try {
    tests = parseFlowTests(text, testPath);
  } catch (err) {
    if (!(err instanceof FlowFileError)) throw err;
    io.stderr(`engage-bridge test-flows: ${err.message}\n`);
    return 2;
  }
  const keywordsOnly = args.values['keywords-only'] === true;
  const log = createLogger({ level: 'error', secrets: config.secrets });
  const server = config.nlu.url ? nluClientOf(config, Date.now, log) : undefined;
  const understander = keywordsOnly ? undefined : await loadUnderstanding(flows, server, log)();
  const languageGuesser = mayGuessLanguage(flows) ? await loadLanguageGuesser() : undefined;
  const turns = await runFlowTests({ flows, tests, understander, languageGuesser });
  const score = scoreFlowTests(turns, tests.thresholds);
  const overlap = overlapWithExamples(flows, tests);
  if (args.values.json === true) {
    io.stdout(`${JSON.stringify({ flows: location.path, tests: testPath, keywordsOnly, ...score, overlap }, null, 2)}\n`);
  } else {
    const reader = keywordsOnly ? 'keywords only' : config.nlu.url ? 'NLU server, then the embedded NLU' : 'embedded NLU';
    const heading = `Flow tests ${testPath} on ${describeFlowFile(location)} (${reader}): ${tests.messages.length} first messages, ${tests.dialogues.length} dialogues`;
    io.stdout(renderFlowTestReport(score, tests.thresholds, heading, overlap));
  }
  return score.below.length === 0 ? 0 : 1;
}
