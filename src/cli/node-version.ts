// No imports: this runs before anything else of the executable loads, on whatever Node the user has.

/** The Node.js versions engage-bridge runs on; package.json's `engines` says the same. */
export const SUPPORTED_NODE = '^22.13.0 || >=24';

/**
 * A sentence for the user when `version` (process.versions.node) cannot run engage-bridge, else undefined.
 * node:sqlite, which the embedded store uses, first shipped unflagged in Node 22.13.
 */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major >= 24 || (major === 22 && minor >= 13) || major === 23) return undefined;
  return `engage-bridge needs Node.js ${SUPPORTED_NODE} (this is Node.js ${version}). Install Node.js 24 (or 22.13+) and run it again.`;
}
