import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    parseConfig({ env });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('BRIDGE_COMMIT_WINDOW_MS', () => {
  it("is the store's commit window in ms when set, 0 included, and left to each store's default when not", () => {
    expect(parseConfig({ env: { BRIDGE_COMMIT_WINDOW_MS: '25' } }).bridge.commitWindowMs).toBe(25);
    expect(parseConfig({ env: { BRIDGE_COMMIT_WINDOW_MS: '0' } }).bridge.commitWindowMs).toBe(0);
    expect(parseConfig({ env: {} }).bridge.commitWindowMs).toBeUndefined();
  });

  it('refuses a negative, fractional or over-a-second window, naming the setting', () => {
    for (const value of ['-1', '2.5', '1001', 'soon']) {
      const problems = problemsOf({ BRIDGE_COMMIT_WINDOW_MS: value });
      expect(problems, value).toHaveLength(1);
      expect(problems[0], value).toMatch(/^BRIDGE_COMMIT_WINDOW_MS: /);
    }
  });
});
