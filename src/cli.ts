#!/usr/bin/env node
// The executable. It checks the Node version before anything else loads (node-version.ts imports nothing): the
// store needs `node:sqlite`, and an older Node would otherwise fail with an obscure import error.
import { nodeVersionProblem } from './cli/node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(problem);
  process.exit(1);
}
await import('./cli/entry.js');
