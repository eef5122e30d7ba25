import { terminalSafe } from '../shared/terminal-safe.js';
import { resolve } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { silentLogger } from '../log.js';
import { isStoreError } from '../storage/index.js';
import { runCliCommand } from '../commands/index.js';
import { askCommandSocket } from '../http/ask-command-socket.js';
import { commandSocketPath } from '../http/command-socket.js';
import { startCommandService } from '../main.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

/**
 * No bridge is running: a command-only service from the composition root (the bridge prepared from its store, no
 * poll or scheduler loops), the command, then close, which waits for any work the command started.
 */
async function standalone(config: Config, io: CliIo, text: string): Promise<{ exitCode: number; output: string }> {
  if (config.demo) {
    return { exitCode: 1, output: 'No bridge is running here and no ENGAGE_ACCESS_TOKEN is set: start the demo with `npm start` first.' };
  }
  const service = await startCommandService(config, { log: silentLogger(), cwd: io.cwd });
  try {
    return await runCliCommand(text, service.commandDeps);
  } finally {
    await service.close();
  }
}

/** `engage-bridge cmd "<command>"`: the same executors as Slack, through the running bridge when there is one. */
export async function cmdCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const config = loadConfig({ cwd: io.cwd, env: io.env, configFile: args.values.config as string | undefined });
  const text = args.positionals[0] ?? '';
  // Only through the owner-only socket in the data directory: the HTTP listener takes no commands.
  const socket = commandSocketPath(resolve(io.cwd, config.bridge.dataDir));
  let result = await askCommandSocket(socket, text);
  if (!result) {
    try {
      result = await standalone(config, io, text);
    } catch (err) {
      if (isStoreError(err, 'locked')) {
        result = { exitCode: 1, output: `${err.message} It does not answer on its command socket ${socket}.` };
      } else throw err;
    }
  }
  // What a customer or agent wrote may be in it: no escape sequence reaches the terminal.
  (result.exitCode === 0 ? io.stdout : io.stderr)(`${terminalSafe(result.output)}\n`);
  return result.exitCode;
}
