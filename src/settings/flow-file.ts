import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlowFileError, type Flows, parseFlows } from '../bot/index.js';

/** Where the flows come from, so that the log and `doctor` can say which file is in use. */
export type FlowFileSource = 'setting' | 'working directory' | 'package';

export interface FlowFileLocation {
  path: string;
  source: FlowFileSource;
}

/** The flows in the working directory that win over the packaged ones when BRIDGE_FLOW_FILE is not set. */
export const LOCAL_FLOW_FILE = 'config/flows.yaml';

/**
 * The default flows shipped with the package. This module sits at `src/settings/` (tsx) or
 * `dist/settings/` (built), both two levels below the package root, where `config/` is shipped.
 */
export const PACKAGED_FLOW_FILE = fileURLToPath(new URL('../../config/flows.yaml', import.meta.url));

/**
 * The flow file to load: BRIDGE_FLOW_FILE when set (relative to `cwd`), else `./config/flows.yaml`
 * when it exists (what `engage-bridge init` writes), else the flows shipped with the package, so that
 * an installed package runs from any directory.
 */
export function locateFlowFile(configured: string | undefined, cwd: string): FlowFileLocation {
  if (configured !== undefined) return { path: resolve(cwd, configured), source: 'setting' };
  const local = resolve(cwd, LOCAL_FLOW_FILE);
  if (existsSync(local)) return { path: local, source: 'working directory' };
  return { path: PACKAGED_FLOW_FILE, source: 'package' };
}

export function describeFlowFile(location: FlowFileLocation): string {
  return `${location.path} (from ${location.source === 'setting' ? 'BRIDGE_FLOW_FILE' : `the ${location.source}`})`;
}

/** Reads a flow file and hands it to the brain's pure parser (the brain itself does no I/O). */
export async function loadFlowFile(path: string): Promise<Flows> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (e as Error).message;
    throw new FlowFileError(path, [{ path: '', message: `cannot read the flow file: ${reason}` }]);
  }
  return parseFlows(text, path);
}
