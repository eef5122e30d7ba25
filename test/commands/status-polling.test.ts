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
});
