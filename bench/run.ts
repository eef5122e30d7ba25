// `npm run bench`: starts the simulator and the bridge as separate processes, drives customers through the
// simulator's control API and prints one JSON object (also written to bench/results/latest.json).
// Usage: npm run bench [-- --smoke] [--only NAME[,NAME]] [--out FILE] [--budget-per-hour N] [--cpu-prof DIR]
// (--built: run dist/cli.js; npm run bench builds it)
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, REPO_ROOT, setBridgeNodeArgs, useBuiltCli } from './lib/child-process.js';
import { machineInfo } from './lib/machine-info.js';
import { runScenario } from './lib/run-scenario.js';
import { FULL_SIZE, SMOKE_SIZE, scenarios } from './lib/scenarios.js';
import type { ScenarioResult, ScenarioSpec } from './lib/scenario-types.js';
import type { NluFigures } from './lib/nlu-measure.js';

export interface BenchOptions {
  readonly smoke?: boolean;
  readonly only?: readonly string[];
  /** Where to write the JSON; null writes nothing. */
  readonly out?: string | null;
  readonly log?: (line: string) => void;
  /**
   * `ENGAGE_RATE_LIMIT_PER_HOUR` for the scenarios that set none (bridge and limit runs alike). Unset, the client's
   * default pacing (500 calls/s, bursts of 200) bounds both; a large value shows what the bridge's CPU allows.
   */
  readonly budgetPerHour?: number;
}

/** The scenarios a run measures: `only` picks them, `budgetPerHour` goes to those with no budget of their own. */
export function specsFor(o: Pick<BenchOptions, 'smoke' | 'only' | 'budgetPerHour'>): ScenarioSpec[] {
  return scenarios(o.smoke ? SMOKE_SIZE : FULL_SIZE)
    .filter((s) => !o.only || o.only.includes(s.name))
    .map((s) => (o.budgetPerHour !== undefined && s.rateLimitPerHour === 0 ? { ...s, rateLimitPerHour: o.budgetPerHour } : s));
}

/** The understanding's figures (bench/nlu.ts), measured in a process of its own so its memory is its alone. */
async function measureNluApart(): Promise<NluFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/nlu.ts'], { cwd: REPO_ROOT, timeout: 120_000 });
  return JSON.parse(stdout) as NluFigures;
}

/** Runs the scenarios one after another, then the understanding's measure (`--only nlu` for it alone), and returns (and writes) the results. */
export async function runBench(o: BenchOptions = {}): Promise<{
  machine: ReturnType<typeof machineInfo>;
  budget_per_hour: number | null;
  scenarios: ScenarioResult[];
  nlu: NluFigures | null;
}> {
  const specs = specsFor(o);
  const results: ScenarioResult[] = [];
  for (const [i, spec] of specs.entries()) {
    o.log?.(`scenario ${spec.name}…`);
    results.push(await runScenario(spec, i));
  }
  let nlu: NluFigures | null = null;
  if (!o.only || o.only.includes('nlu')) {
    o.log?.('nlu…');
    nlu = await measureNluApart();
  }
  const report = { machine: machineInfo(), budget_per_hour: o.budgetPerHour ?? null, scenarios: results, nlu };
  const out = o.out === undefined ? join(REPO_ROOT, 'bench/results/latest.json') : o.out;
  if (out) {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  }
  return report;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? '') : undefined;
}

/** `--budget-per-hour N`: a whole number the bridge's settings accept (1 to 10,000,000), or the run stops here. */
export function parseBudgetPerHour(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000) {
    throw new Error(`--budget-per-hour must be a whole number from 1 to 10000000 (calls per hour), not ${JSON.stringify(text)}`);
  }
  return n;
}

async function main(): Promise<void> {
  const only = flag('only');
  const budgetPerHour = parseBudgetPerHour(flag('budget-per-hour'));
  // `npm run bench` builds first and measures the compiled bridge, as it is deployed.
  if (process.argv.includes('--built')) useBuiltCli(true);
  // `--cpu-prof DIR`: each bridge writes a V8 CPU profile there when it stops (read it with bench/profile-summary.ts).
  const profileDir = flag('cpu-prof');
  if (profileDir) setBridgeNodeArgs(['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`]);
  const report = await runBench({
    smoke: process.argv.includes('--smoke'),
    ...(only ? { only: only.split(',') } : {}),
    ...(flag('out') ? { out: flag('out')! } : {}),
    ...(budgetPerHour !== undefined ? { budgetPerHour } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const stop = () => {
    killAllChildren();
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  main().catch((err: unknown) => {
    killAllChildren();
    process.stderr.write(`bench failed: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  });
}
