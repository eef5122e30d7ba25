import { defaultSeed } from './default-seed.js';
import { listen, type ListenOptions, type RunningSimulator } from './listen.js';
import { Simulator, type SimulatorOptions } from './simulator.js';

export { defaultSeed } from './default-seed.js';
export { loadSeedFile, parseSeed } from './load-seed-file.js';
export { Simulator, type SimulatorOptions } from './simulator.js';
export type { ListenOptions, RunningSimulator } from './listen.js';
export type { Realism } from './runtime.js';
export type { Faults } from './faults.js';
export type { Seed, SeedInput } from './seed-schema.js';
export type { OutboundEntry, RequestEntry } from './model.js';
export { runSimulatorCommand, type SimulatorCommandOptions } from './run-simulator-command.js';

/** A simulator plus `listen()`: direct access for tests, sockets for everyone else. */
export interface SimulatorHandle {
  sim: Simulator;
  listen(opts?: ListenOptions): Promise<RunningSimulator>;
}

export function createSimulator(opts: SimulatorOptions = {}): SimulatorHandle {
  const sim = new Simulator(opts);
  return { sim, listen: (listenOpts) => listen(sim, listenOpts) };
}

export const DEFAULT_ACCOUNT_ID = String(defaultSeed.account.id);
export const DEFAULT_TOKEN = defaultSeed.tokens[0]?.token ?? 'sim-token';
