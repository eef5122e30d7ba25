import { describe, it, expect } from 'vitest';
import { openingExpressions } from '../../src/bridge/scheduler.js';

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
