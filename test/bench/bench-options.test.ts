import { describe, expect, it } from 'vitest';
import { parseBudgetPerHour, specsFor } from '../../bench/run.js';

describe('npm run bench -- --budget-per-hour N', () => {
  it('gives the budget to the scenarios that have none and leaves the rate-budget scenario its own', () => {
    const specs = specsFor({ budgetPerHour: 10_000_000 });
    const byName = new Map(specs.map((s) => [s.name, s.rateLimitPerHour]));
    expect(byName.get('steady-poll')).toBe(10_000_000);
    expect(byName.get('steady-webhook')).toBe(10_000_000);
    expect(byName.get('rate-budget')).toBe(18_000);
    expect(specsFor({}).find((s) => s.name === 'steady-poll')?.rateLimitPerHour).toBe(0);
    expect(specsFor({ only: ['steady-webhook'], budgetPerHour: 3600 }).map((s) => [s.name, s.rateLimitPerHour])).toEqual([
      ['steady-webhook', 3600],
    ]);
  });

  it('takes a whole number from 1 to 10,000,000 and refuses anything else with what it expected', () => {
    expect(parseBudgetPerHour(undefined)).toBeUndefined();
    expect(parseBudgetPerHour('10000000')).toBe(10_000_000);
    for (const bad of ['', '0', '-5', '1.5', 'lots', '10000001']) {
      expect(() => parseBudgetPerHour(bad), bad).toThrow(/--budget-per-hour must be a whole number from 1 to 10000000/);
    }
  });
});
