#!/usr/bin/env node
// The executable. The Node version is checked before the rest loads: on an older Node the rest would fail
// with an error about a missing built-in module instead of saying what is needed.
import { nodeVersionProblem } from './cli/node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import('./cli/entry.js');
