import { loadSeedFile } from './load-seed-file.js';
import { listen, type RunningSimulator } from './listen.js';
import { realismSchema } from './control-api.js';
import type { Realism } from './runtime.js';
import { Simulator } from './simulator.js';

export interface SimulatorCommandOptions {
  port?: number;
  host?: string;
  seedFile?: string;
  /** Realism switches at start, as `POST /_sim/realism` takes them (JSON text); kept across `/_sim/reset`. */
  realism?: string;
  /** Where the base URL and hints are printed (default: stdout). */
  log?: (line: string) => void;
}

/** `--realism` text: a JSON object of realism switches; anything else throws a message naming the key. */
export function parseRealism(text: string): Partial<Realism> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`--realism must be a JSON object, e.g. '{"handover_date_hidden":true}'`);
  }
  const parsed = realismSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `--realism: ${issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''}${issue?.message ?? 'invalid'}`,
    );
  }
  return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<Realism>;
}

/** `engage-bridge simulator`: starts the simulator, prints its base URL; a bad seed file throws a clear error. */
export async function runSimulatorCommand(opts: SimulatorCommandOptions = {}): Promise<RunningSimulator & { sim: Simulator }> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seed = opts.seedFile ? await loadSeedFile(opts.seedFile) : undefined;
  const realism = opts.realism === undefined ? undefined : parseRealism(opts.realism);
  const sim = new Simulator({ ...(seed ? { seed } : {}), ...(realism ? { realism } : {}) });
  const running = await listen(sim, { port: opts.port ?? 4010, host: opts.host ?? '127.0.0.1' });
  log(`Engage simulator listening on ${running.url}`);
  // Tokens of a custom seed are treated as secrets; only the documented demo token is shown.
  const token = seed ? 'from the seed file' : 'sim-token';
  log(`  account ${sim.state.account.id}, token ${token}; control API under ${running.url}/_sim/`);
  return { ...running, sim };
}
