import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where this copy of engage-bridge lives: the package root (src/cli/ and dist/cli/ both sit two levels down). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How a user runs another engage-bridge command from `cwd`, for the lines a command prints: inside the
 * repository `npm run cli --`; installed as a package `npx engage-bridge` where that directory's
 * node_modules has the executable, else the installed executable's own path. The banner must name
 * commands that work where it runs: `npm run cli` exists only in the repository.
 */
export function howToRun(cwd: string, root = PACKAGE_ROOT): string {
  const installed = root.split(sep).includes('node_modules');
  if (!installed) return 'npm run cli --';
  if (existsSync(join(cwd, 'node_modules', '.bin', 'engage-bridge'))) return 'npx engage-bridge';
  return join(root, 'dist', 'cli.js');
}

/** The absolute path of a document shipped with the package (`docs/simulator.md`), for a banner to point at. */
export function shippedDoc(name: string, root = PACKAGE_ROOT): string {
  return join(root, 'docs', name);
}
