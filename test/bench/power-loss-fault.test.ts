import { describe, expect, it } from 'vitest';
import { interruptionPlan } from '../../bench/lib/power-loss-fault.js';

describe('the chaos interruption plan', () => {
  it('spreads the power cuts among the kills, never first when there are kills', () => {
    expect(interruptionPlan(4, 2)).toEqual(['kill', 'kill', 'power-loss', 'kill', 'kill', 'power-loss']);
    expect(interruptionPlan(1, 1)).toEqual(['kill', 'power-loss']);
    expect(interruptionPlan(3, 0)).toEqual(['kill', 'kill', 'kill']);
    expect(interruptionPlan(0, 2)).toEqual(['power-loss', 'power-loss']);
  });
});
