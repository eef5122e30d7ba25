import { describe, expect, it } from 'vitest';
import { watchedTopics } from '../../../src/bridge/intake/poller-topics.js';

describe('the watched topics', () => {
  it('lists the topics again after the refresh interval, so a new topic is read without a restart', async () => {
    let now = 0;
    let listed = [['1']];
    const topics = watchedTopics({ configured: undefined, list: async () => listed[0] ?? [], now: () => now, refreshMs: 1000 });
    expect(await topics()).toEqual(['1']);
    listed = [['1', '2']];
    now = 500;
    expect(await topics()).toEqual(['1']);
    now = 1500;
    expect(await topics()).toEqual(['1', '2']);
  });

  it('keeps the last list when listing again fails', async () => {
    let now = 0;
    let fail = false;
    const errors: unknown[] = [];
    const topics = watchedTopics({
      configured: undefined,
      list: async () => {
        if (fail) throw new Error('down');
        return ['1'];
      },
      now: () => now,
      refreshMs: 1000,
      onRefreshError: (e) => errors.push(e),
    });
    await topics();
    fail = true;
    now = 2000;
    expect(await topics()).toEqual(['1']);
    expect(errors).toHaveLength(1);
  });

  it('uses the configured topics as they are', async () => {
    const topics = watchedTopics({ configured: ['7'], list: async () => ['x'], now: () => 0 });
    expect(await topics()).toEqual(['7']);
  });
});
