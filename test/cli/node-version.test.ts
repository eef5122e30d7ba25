import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/node-version.js';

describe('the Node version check at the top of the CLI', () => {
  it('refuses Node 20 and 22.12 and says which Node it needs', () => {
    for (const version of ['20.20.2', '22.12.0', '18.0.0']) {
      const problem = nodeVersionProblem(version);
      expect(problem).toContain('needs Node.js 22.13.0 or newer');
      expect(problem).toContain(`this is Node ${version}`);
    }
  });

  it('accepts Node 22.13 and later and Node 24', () => {
    for (const version of ['22.13.0', '22.23.1', '23.0.0', '24.21.0', process.versions.node])
      expect(nodeVersionProblem(version)).toBeUndefined();
  });
});
