import { loadSeedFile } from './load-seed-file.js';
import { listen, type RunningSimulator } from './listen.js';
import { Simulator } from './simulator.js';

export interface SimulatorCommandOptions {
  port?: number;
  host?: string;
  seedFile?: string;
  /** Where the base URL and hints are printed (default: stdout). */
  log?: (line: string) => void;
}

/** `engage-bridge simulator`: starts the simulator, prints its base URL; a bad seed file throws a clear error. */
export async function runSimulatorCommand(opts: SimulatorCommandOptions = {}): Promise<RunningSimulator & { sim: Simulator }> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seed = opts.seedFile ? await loadSeedFile(opts.seedFile) : undefined;
  const sim = new Simulator(seed ? { seed } : {});
  const running = await listen(sim, { port: opts.port ?? 4010, host: opts.host ?? '127.0.0.1' });
  log(`Engage simulator listening on ${running.url}`);
  // Tokens of a custom seed are treated as secrets; only the documented demo token is shown.
  const token = seed ? 'from the seed file' : 'sim-token';
  log(`  account ${sim.state.account.id}, token ${token}; control API under ${running.url}/_sim/`);
  return { ...running, sim };
}
