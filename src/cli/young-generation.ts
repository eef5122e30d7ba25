import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its initial size for a long-running `start`. By default it grows to two 16 MB
 * semi-spaces as soon as allocation is brisk (loading a large store, the first polls), and each scavenge then
 * touches fresh pages: 30-40 MB of the process's peak resident memory with 50,000 stored conversations
 * (issue 13), for no gain in a service whose requests each allocate little. The flag is read by V8 each time the
 * young generation would grow, so setting it early at run time works like passing it to node.
 * An operator who sets a semi-space flag (node's arguments or NODE_OPTIONS) keeps their choice.
 */
export function limitYoungGeneration(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  if ([...execArgv, nodeOptions ?? ''].some((arg) => arg.includes('semi-space') || arg.includes('semi_space'))) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
