/** The oldest Node the service runs on: the store uses the built-in `node:sqlite`, unflagged from 22.13. */
export const OLDEST_NODE = '22.13.0';

/** Says why `version` (as `process.versions.node`) is too old to run engage-bridge; undefined when it is enough. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return undefined;
  return (
    `engage-bridge needs Node.js ${OLDEST_NODE} or newer (24 recommended); this is Node ${version}.\n` +
    'Install a newer Node (https://nodejs.org), or run it once with `npx -y node@24 "$(command -v engage-bridge)" ...`.\n'
  );
}
