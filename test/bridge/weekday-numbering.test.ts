import { describe, expect, it } from 'vitest';
import { detectWeekdayNumbering, inSunday0, toSunday0 } from '../../src/bridge/weekday-numbering.js';

/** Monday–Friday 09:00–17:00 UTC, its days written in a numbering. */
const schedule = (days: number[], isActive?: boolean) => ({
  id: '301',
  name: 'Support',
  timezone: 'UTC',
  periods: days.map((dayofweek) => ({ dayofweek, start: '0900', end: '1700' })),
  ...(isActive === undefined ? {} : { is_active: isActive }),
});
const FRIDAY_10 = Date.UTC(2026, 10, 20, 10, 0, 0);

describe('the weekday numbering of an account’s business hours (issue 26)', () => {
  it('converts each numbering to 0 = Sunday', () => {
    expect([0, 6, 1, 7].map((d, i) => toSunday0(d, (['sunday0', 'monday0', 'sunday1', 'monday1'] as const)[i]!))).toEqual([0, 0, 0, 0]);
  });

  it('reads counting from 1 from a 7, and Monday first from the service’s is_active', () => {
    // Monday = 1 .. Sunday = 7; the schedule also opens on Sunday so a 7 shows.
    expect(detectWeekdayNumbering([schedule([1, 2, 3, 4, 5, 7], true)], FRIDAY_10).numbering).toBe('monday1');
    // Monday = 0 .. Friday = 4, open now (Friday): read as Sunday = 0 it would be closed.
    const found = detectWeekdayNumbering([schedule([0, 1, 2, 3, 4], true)], FRIDAY_10);
    expect(found.numbering).toBe('monday0');
    expect(found.probe).toMatchObject({ holds: false, detail: expect.stringMatching(/from Monday = 0/) });
    expect(inSunday0([schedule([0, 1, 2, 3, 4])], 'monday0')[0]?.periods.map((p) => p.dayofweek)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the default when nothing tells the numberings apart', () => {
    expect(detectWeekdayNumbering([schedule([1, 2, 3, 4, 5])], FRIDAY_10)).toMatchObject({ numbering: 'sunday0', probe: { holds: true } });
  });
});
