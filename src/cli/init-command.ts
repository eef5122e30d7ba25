import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { envTemplate } from '../settings/env-template.js';
import { LOCAL_FLOW_FILE, PACKAGED_FLOW_FILE } from '../settings/flow-file.js';
import type { CliIo } from './cli-io.js';
import type { ParsedArgs } from './run-cli.js';

type Outcome = 'written' | 'kept';

/** Creates `path` only when nothing is there: `wx` fails on an existing file, so a user's edits are never overwritten. */
async function createOnce(path: string, write: (path: string) => Promise<void>): Promise<Outcome> {
  try {
    await write(path);
    return 'written';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'kept';
    throw err;
  }
}

/**
 * `engage-bridge init [DIR]`: an editable copy of the default flows and a `.env` template with every
 * setting commented, in DIR (default: here). Existing files are kept as they are.
 */
export async function initCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const dir = resolve(io.cwd, args.positionals[0] ?? '.');
  await mkdir(join(dir, 'config'), { recursive: true });
  const flows = join(dir, LOCAL_FLOW_FILE);
  const env = join(dir, '.env');
  const results: [string, Outcome][] = [
    // COPYFILE_EXCL: copyFile's own "fail if it exists".
    [flows, await createOnce(flows, (p) => copyFile(PACKAGED_FLOW_FILE, p, 1))],
    [env, await createOnce(env, (p) => writeFile(p, envTemplate(), { flag: 'wx', mode: 0o600 }))],
  ];
  const shown = (p: string) => relative(io.cwd, p) || p;
  for (const [path, outcome] of results) {
    io.stdout(outcome === 'written' ? `wrote ${shown(path)}\n` : `kept ${shown(path)} (it exists; nothing overwritten)\n`);
  }
  const cd = dir === io.cwd ? '' : `  cd ${shown(dir)}\n`;
  io.stdout(
    [
      '',
      'Next steps:',
      `${cd}  engage-bridge start            # the demo on the embedded simulator, with your flows`,
      `  edit ${LOCAL_FLOW_FILE}        # what the bot says and when it hands over`,
      '  edit .env                      # set ENGAGE_ACCESS_TOKEN and ENGAGE_ACCOUNT_ID for a real account',
      '  engage-bridge doctor           # checks the settings and the account before a real start',
      '',
    ].join('\n'),
  );
  return 0;
}
