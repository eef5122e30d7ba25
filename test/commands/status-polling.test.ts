import { describe, expect, it } from 'vitest';
import { describeHealth } from '../../src/commands/status-command.js';

describe('status', () => {
  it('shows the polling calls of the last hour when the bridge reports them (#11.8)', () => {
    const text = describeHealth(
      {
        ingestionLagMs: 0,
        conversationsByOwner: {},
        apiBudgetRemaining: null,
        botPausedForAll: false,
        pollCallsLastHour: { list: 1800, recheck: 40 },
      },
      0,
    );
    expect(text).toContain('Polling: 1840 calls in the last hour (1800 list pages, 40 re-reads)');
  });

  it('lists the guesses about the service that did not hold, and nothing for those that do (issue 26)', () => {
    const base = { ingestionLagMs: 0, conversationsByOwner: {}, apiBudgetRemaining: null, botPausedForAll: false };
    const text = describeHealth(
      {
        ...base,
        guesses: {
          notHeld: { 'handover-history': 3 },
          probes: {
            'mentions-window': { holds: false, detail: 'date_from is ignored' },
            'mentions-order': { holds: true, detail: 'oldest first, as asked' },
          },
        },
      },
      0,
    );
    expect(text).toContain('Guesses about the service that do not hold:');
    expect(text).toContain('  mentions-window: date_from is ignored');
    expect(text).toContain('  handover-history: 3 time(s), the safe side taken');
    expect(text).not.toContain('mentions-order');
    expect(describeHealth({ ...base, guesses: { notHeld: {}, probes: {} } }, 0)).not.toContain('Guesses');
  });
});
