import { runSimulatorCommand } from '../simulator/index.js';
import { UsageError, type CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';
import { commandHelp } from './usage.js';

/** `engage-bridge simulator`: the fake Engage API alone, until SIGINT/SIGTERM. */
export async function simulatorCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const portText = args.values.port as string | undefined;
  const port = portText === undefined ? 4010 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0..65535 (got "${portText}")`, commandHelp('simulator'));
  const host = (args.values.host as string | undefined) ?? '127.0.0.1';
  const running = await runSimulatorCommand({
    port,
    host,
    ...(args.values.seed ? { seedFile: args.values.seed as string } : {}),
    ...(typeof args.values.realism === 'string' ? { realism: args.values.realism } : {}),
    log: (line) => io.stdout(`${line}\n`),
  });
  await io.stopSignal;
  await running.close();
  return 0;
}
