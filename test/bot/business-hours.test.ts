import { describe, it, expect } from 'vitest';
import { hoursStatus, nextOpening, describeMoment, describeWeek } from '../../src/bot/index.js';
import type { BusinessHoursSchedule } from '../../src/bot/index.js';

const weekdays = (tz: string, start = '0900', end = '1700'): BusinessHoursSchedule => ({
  id: 1,
  name: 'desk',
  timezone: tz,
  periods: [1, 2, 3, 4, 5].map((d) => ({ dayofweek: d, start, end })),
});
const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('business hours calculator', () => {
  const brussels = weekdays('Europe/Brussels');
  const newYork = weekdays('America/New_York');

  it.each([
    // [schedule, now, open, until, next opening]
    ['Brussels, Monday 10:00 CET', brussels, '2026-11-23T09:00:00Z', true, '2026-11-23T16:00:00.000Z', undefined],
    ['Brussels, Monday 08:59 CET', brussels, '2026-11-23T07:59:00Z', false, undefined, '2026-11-23T08:00:00.000Z'],
    [
      'Brussels, Friday 17:00 sharp is closed, week wraps to Monday',
      brussels,
      '2026-11-27T16:00:00Z',
      false,
      undefined,
      '2026-11-30T08:00:00.000Z',
    ],
    ['Brussels, Saturday', brussels, '2026-11-21T12:00:00Z', false, undefined, '2026-11-23T08:00:00.000Z'],
    // Spring forward in Brussels: Sunday 29 March 2026; Monday opens at 09:00 CEST = 07:00Z.
    ['Brussels, weekend of the spring DST change', brussels, '2026-03-28T12:00:00Z', false, undefined, '2026-03-30T07:00:00.000Z'],
    [
      'Brussels, Friday before spring change closes at 17:00 CET',
      brussels,
      '2026-03-27T10:00:00Z',
      true,
      '2026-03-27T16:00:00.000Z',
      undefined,
    ],
    // Fall back in Brussels: Sunday 25 October 2026; Monday opens at 09:00 CET = 08:00Z.
    ['Brussels, weekend of the autumn DST change', brussels, '2026-10-24T12:00:00Z', false, undefined, '2026-10-26T08:00:00.000Z'],
    // New York: spring forward 8 March 2026, fall back 1 November 2026.
    ['New York, Friday before spring change', newYork, '2026-03-06T23:00:00Z', false, undefined, '2026-03-09T13:00:00.000Z'],
    ['New York, Monday after spring change, 09:30 EDT', newYork, '2026-03-09T13:30:00Z', true, '2026-03-09T21:00:00.000Z', undefined],
    ['New York, Monday after autumn change, 09:30 EST', newYork, '2026-11-02T14:30:00Z', true, '2026-11-02T22:00:00.000Z', undefined],
  ])('%s', (_label, schedule, now, open, until, next) => {
    const s = hoursStatus(schedule, at(now));
    expect(s.open).toBe(open);
    expect(iso(s.until)).toBe(until);
    expect(iso(s.nextOpening)).toBe(next);
  });

  it('reads a local time inside the spring-forward gap as the moment after the gap', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'n',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 0, start: '0230', end: '0400' }],
    };
    // 02:30 does not exist on 29 March 2026; the period starts at 03:30 CEST (01:30Z) and ends at 04:00 CEST (02:00Z).
    expect(iso(nextOpening(s, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:30:00.000Z');
    expect(hoursStatus(s, at('2026-03-29T01:45:00Z'))).toMatchObject({ open: true, until: at('2026-03-29T02:00:00Z') });
  });

  it('takes the first occurrence of a local time repeated by the autumn change', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'n',
      timezone: 'America/New_York',
      periods: [{ dayofweek: 0, start: '0130', end: '0300' }],
    };
    // 01:30 happens twice on 1 November 2026: first at 05:30Z (EDT). 03:00 EST is 08:00Z.
    expect(iso(nextOpening(s, at('2026-10-31T12:00:00Z')))).toBe('2026-11-01T05:30:00.000Z');
    expect(hoursStatus(s, at('2026-11-01T06:45:00Z'))).toMatchObject({ open: true, until: at('2026-11-01T08:00:00Z') });
  });

  it('treats 2400 as midnight and joins it to a period starting at 0000 the next day', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'late',
      timezone: 'Europe/Brussels',
      periods: [
        { dayofweek: 5, start: '1800', end: '2400' },
        { dayofweek: 6, start: '0000', end: '0200' },
      ],
    };
    const fridayNight = hoursStatus(s, at('2026-11-27T22:30:00Z'));
    expect(fridayNight).toEqual({ open: true, until: at('2026-11-28T01:00:00Z') });
  });

  it('answers every day and zone afresh when one schedule is asked about again and again', () => {
    const periods = brussels.periods;
    const asked = [
      ['Europe/Brussels', '2026-11-23T09:00:00Z'],
      ['Europe/Brussels', '2026-11-23T15:59:00Z'],
      ['America/New_York', '2026-11-23T15:59:00Z'],
      ['Europe/Brussels', '2026-11-21T12:00:00Z'],
      ['Europe/Brussels', '2026-11-23T09:00:00Z'],
    ] as const;
    for (const [timezone, now] of asked) {
      // The same periods array each time (as the bridge hands it over), and a fresh copy: the answers must agree.
      const shared = hoursStatus({ ...brussels, timezone, periods }, at(now));
      const fresh = hoursStatus({ ...brussels, timezone, periods: periods.map((p) => ({ ...p })) }, at(now));
      expect(shared).toEqual(fresh);
      expect(nextOpening({ ...brussels, timezone, periods }, at(now))).toBe(nextOpening(weekdays(timezone), at(now)));
    }
  });

  it('handles several periods on one day', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'split',
      timezone: 'Europe/Brussels',
      periods: [
        { dayofweek: 1, start: '1300', end: '1700' },
        { dayofweek: 1, start: '0900', end: '1200' },
      ],
    };
    expect(hoursStatus(s, at('2026-11-23T10:00:00Z'))).toEqual({ open: true, until: at('2026-11-23T11:00:00Z') });
    expect(hoursStatus(s, at('2026-11-23T11:30:00Z'))).toEqual({ open: false, nextOpening: at('2026-11-23T12:00:00Z') });
    expect(hoursStatus(s, at('2026-11-23T16:30:00Z'))).toEqual({ open: false, nextOpening: at('2026-11-30T08:00:00Z') });
  });

  it('says an empty schedule is closed with no next opening', () => {
    expect(hoursStatus({ id: 1, name: 'none', timezone: 'Europe/Brussels', periods: [] }, 0)).toEqual({ open: false });
  });

  it('says a schedule open around the clock has no closing time', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: '24/7',
      timezone: 'America/New_York',
      periods: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ dayofweek: d, start: '0000', end: '2400' })),
    };
    expect(hoursStatus(s, at('2026-11-01T06:00:00Z'))).toEqual({ open: true });
  });

  it('wraps from Saturday to Sunday across the end of the week', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'sun',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 0, start: '1000', end: '1200' }],
    };
    expect(iso(hoursStatus(s, at('2026-11-28T20:00:00Z')).nextOpening)).toBe('2026-11-29T09:00:00.000Z');
  });

  it('ignores malformed periods and rejects an unknown time zone with its name', () => {
    const s: BusinessHoursSchedule = {
      id: 1,
      name: 'bad',
      timezone: 'Europe/Brussels',
      periods: [{ dayofweek: 1, start: '1700', end: '0900' }],
    };
    expect(hoursStatus(s, 0)).toEqual({ open: false });
    expect(() => hoursStatus({ ...s, timezone: 'Mars/Olympus' }, 0)).toThrow(/Mars\/Olympus/);
  });
});

describe('business hours in words', () => {
  const tz = 'Europe/Brussels';
  it.each([
    ['later today', '2026-11-23T07:00:00Z', '2026-11-23T08:00:00Z', 'today at 09:00'],
    ['tomorrow', '2026-11-23T17:00:00Z', '2026-11-24T08:00:00Z', 'tomorrow at 09:00'],
    ['after the weekend', '2026-11-21T12:00:00Z', '2026-11-23T08:00:00Z', 'Monday at 09:00'],
    ['more than a week away', '2026-11-21T12:00:00Z', '2026-12-01T08:00:00Z', 'Tuesday December 1 at 09:00'],
  ])('describes an opening %s', (_l, now, then, words) => {
    expect(describeMoment(at(then), at(now), tz)).toBe(words);
  });

  it('summarises the week, Monday first, joining equal days', () => {
    expect(describeWeek(weekdays(tz))).toBe('Monday–Friday 09:00–17:00');
    const s: BusinessHoursSchedule = {
      ...weekdays(tz),
      periods: [...weekdays(tz).periods, { dayofweek: 6, start: '1000', end: '1200' }, { dayofweek: 6, start: '1300', end: '1500' }],
    };
    expect(describeWeek(s)).toBe('Monday–Friday 09:00–17:00; Saturday 10:00–12:00, 13:00–15:00');
  });

  it('words the same periods in each language asked, again and again', () => {
    const s = weekdays(tz);
    for (let i = 0; i < 2; i++) {
      expect(describeWeek(s, 'en')).toBe('Monday–Friday 09:00–17:00');
      expect(describeWeek({ ...s }, 'fr')).toBe('lundi–vendredi 09:00–17:00');
      expect(describeWeek({ ...s, periods: [{ dayofweek: 1, start: '0800', end: '1200' }] }, 'en')).toBe('Monday 08:00–12:00');
    }
  });
});
