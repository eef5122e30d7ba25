import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/cli/node-version.js';

describe('the Node version check of the executable', () => {
  it('accepts Node 22.13 and later, 23 and 24', () => {
    for (const v of ['22.13.0', '22.23.1', '23.1.0', '24.0.0', '24.21.0', '25.2.1']) expect(nodeVersionProblem(v)).toBeUndefined();
  });

  it('names what it needs and what it found on an older Node', () => {
    for (const v of ['20.20.2', '22.12.0', '18.0.0']) {
      const problem = nodeVersionProblem(v);
      expect(problem).toContain('^22.13.0 || >=24');
      expect(problem).toContain(`Node.js ${v}`);
    }
  });
});
