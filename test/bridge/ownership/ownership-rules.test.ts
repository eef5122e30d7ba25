import { describe, it, expect } from 'vitest';
import { ownerTransition, type OwnerState, type OwnershipEvent } from '../../../src/bridge/ownership/ownership-rules.js';

const never = { type: 'observed', owner: 'agents', neverHandedOver: true } as const;
const agentsHold = { type: 'observed', owner: 'agents', neverHandedOver: false } as const;
const appHolds = { type: 'observed', owner: 'application', neverHandedOver: false } as const;

const table: Array<[OwnerState, OwnershipEvent, string | undefined, string | undefined]> = [
  // from, event, to, call
  ['unknown', never, 'bot', 'toApplication'],
  ['bot', never, 'bot', 'toApplication'],
  ['agents', never, undefined, undefined],
  ['unknown', agentsHold, 'agents', undefined],
  ['bot', agentsHold, 'agents', undefined],
  ['agents', agentsHold, undefined, undefined],
  ['unknown', appHolds, 'bot', undefined],
  ['agents', appHolds, 'bot', undefined],
  ['bot', appHolds, undefined, undefined],
  ['bot', { type: 'escalate' }, 'agents', 'toAgents'],
  ['agents', { type: 'escalate' }, undefined, undefined],
  ['bot', { type: 'human-activity' }, 'agents', 'toAgents'],
  ['agents', { type: 'return', by: 'resolved' }, 'bot', 'toApplication'],
  ['agents', { type: 'return', by: 'idle' }, 'bot', 'toApplication'],
  ['bot', { type: 'return', by: 'manager' }, undefined, undefined],
  ['bot', { type: 'manager-to-agents' }, 'agents', 'toAgents'],
  ['bot', { type: 'pause' }, 'paused', undefined],
  ['agents', { type: 'pause' }, 'paused', undefined],
  ['paused', { type: 'resume' }, 'unknown', undefined],
  ['paused', never, undefined, undefined],
  ['paused', appHolds, undefined, undefined],
  ['paused', { type: 'escalate' }, undefined, undefined],
  ['paused', { type: 'human-activity' }, undefined, undefined],
  ['paused', { type: 'return', by: 'idle' }, undefined, undefined],
  ['paused', { type: 'return', by: 'manager' }, 'bot', 'toApplication'],
  ['paused', { type: 'manager-to-agents' }, 'agents', 'toAgents'],
];

describe('ownership rules', () => {
  it.each(table)('from %s on %o goes to %s calling %s', (from, event, to, call) => {
    const t = ownerTransition(from, event);
    expect(t?.to).toBe(to);
    expect(t?.call).toBe(call);
  });

  it('never lets the bot claim a contact that agents hold', () => {
    for (const from of ['unknown', 'bot', 'agents', 'paused'] as const) {
      const t = ownerTransition(from, agentsHold);
      expect(t?.to === 'bot').toBe(false);
      expect(t?.call).toBeUndefined();
    }
  });
});
