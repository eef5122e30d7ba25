// The one I/O step of the brain: read the flow file and hand it to the pure parser.
import { readFile } from 'node:fs/promises';
import { parseFlows, FlowFileError } from './parse-flows.js';
import type { Flows } from './flow-schema.js';

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
