// `npm run bench`: starts the simulator and the bridge as separate processes, drives customers through the
// simulator's control API and prints one JSON object (also written to bench/results/latest.json).
// Usage: npm run bench [-- --smoke] [--only NAME[,NAME]] [--out FILE] (--built: run dist/cli.js; npm run bench builds it)
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, REPO_ROOT, useBuiltCli } from './lib/child-process.js';
import { machineInfo } from './lib/machine-info.js';
import { runScenario } from './lib/run-scenario.js';
import { FULL_SIZE, SMOKE_SIZE, scenarios } from './lib/scenarios.js';
import type { ScenarioResult } from './lib/scenario-types.js';

export interface BenchOptions {
  readonly smoke?: boolean;
  readonly only?: readonly string[];
  /** Where to write the JSON; null writes nothing. */
  readonly out?: string | null;
  readonly log?: (line: string) => void;
}

/** Runs the scenarios one after another and returns (and writes) the results. */
export async function runBench(o: BenchOptions = {}): Promise<{ machine: ReturnType<typeof machineInfo>; scenarios: ScenarioResult[] }> {
  const specs = scenarios(o.smoke ? SMOKE_SIZE : FULL_SIZE).filter((s) => !o.only || o.only.includes(s.name));
  const results: ScenarioResult[] = [];
  for (const [i, spec] of specs.entries()) {
    o.log?.(`scenario ${spec.name}…`);
    results.push(await runScenario(spec, i));
  }
  const report = { machine: machineInfo(), scenarios: results };
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

async function main(): Promise<void> {
  const only = flag('only');
  // `npm run bench` builds first and measures the compiled bridge, as it is deployed.
  if (process.argv.includes('--built')) useBuiltCli(true);
  const report = await runBench({
    smoke: process.argv.includes('--smoke'),
    ...(only ? { only: only.split(',') } : {}),
    ...(flag('out') ? { out: flag('out')! } : {}),
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
