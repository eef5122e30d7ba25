import { describe, it, expect } from 'vitest';
import type { BridgeContext } from '../../src/bridge/bridge-context.js';
import { RETENTION_CRON, Scheduler, openingExpressions } from '../../src/bridge/scheduler.js';

describe('opening-time schedule', () => {
  it('fires at every opening of the schedule, once per day and start time', () => {
    const exprs = openingExpressions({
      id: 1,
      name: 'x',
      timezone: 'Europe/Brussels',
      periods: [
        { dayofweek: 1, start: '0900', end: '1200' },
        { dayofweek: 1, start: '1300', end: '1700' },
        { dayofweek: 2, start: '0930', end: '1700' },
        { dayofweek: 2, start: '0930', end: '1000' },
      ],
    });
    expect(exprs).toEqual(['0 0 9 * * 1', '0 0 13 * * 1', '0 30 9 * * 2']);
  });

  it('ignores malformed periods and has nothing to fire for an empty schedule', () => {
    expect(openingExpressions({ id: 1, name: 'x', timezone: 'UTC', periods: [] })).toEqual([]);
    expect(
      openingExpressions({
        id: 1,
        name: 'x',
        timezone: 'UTC',
        periods: [
          { dayofweek: 9, start: '0900', end: '1000' },
          { dayofweek: 1, start: '9am', end: '1000' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('the retention job', () => {
  const quiet = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
  const ctx = { hours: { current: () => undefined }, log: quiet } as unknown as BridgeContext;

  it('runs once as the scheduler starts, and stop waits for that run to end', async () => {
    let runs = 0;
    let finish: () => void = () => {};
    const jobs = {
      reconcile: async () => {},
      refreshHours: async () => {},
      housekeeping: async () => {},
      releaseQueued: async () => {},
      retention: () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    };
    const scheduler = new Scheduler(ctx, jobs);
    scheduler.start();
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(runs).toBe(1);
  });

  it('runs daily: a cron time of one day, once', () => {
    const [seconds, minutes, hours, ...rest] = RETENTION_CRON.split(' ');
    expect([seconds, minutes, hours].every((f) => /^\d+$/.test(f ?? ''))).toBe(true);
    expect(rest).toEqual(['*', '*', '*']);
  });
});
