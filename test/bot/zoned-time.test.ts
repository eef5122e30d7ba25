import { describe, expect, it } from 'vitest';
import { instantOf, wallClock } from '../../src/bot/zoned-time.js';

/** The wall clock straight from Intl, as the module read it before it cached offsets. */
const formats = new Map<string, Intl.DateTimeFormat>();
function intlWallClock(instantMs: number, timeZone: string) {
  const format =
    formats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  formats.set(timeZone, format);
  const parts = format.formatToParts(new Date(instantMs));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const [year, month, day] = [get('year'), get('month'), get('day')];
  return {
    year,
    month,
    day,
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
  };
}

const ZONES = [
  'Europe/Brussels',
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'UTC',
  'America/St_Johns',
];

describe('the wall clock of a zone', () => {
  it('matches Intl around the DST changes of 2026 and at random instants', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const instants: number[] = [];
    // Every 29 s through the two Brussels changes and New York's, and 1,000 random instants in 2020-2030.
    for (const start of [
      Date.UTC(2026, 2, 29, 0, 30),
      Date.UTC(2026, 9, 25, 0, 30),
      Date.UTC(2026, 2, 8, 6, 30),
      Date.UTC(2026, 3, 5, 14, 30),
    ]) {
      for (let t = start; t < start + 2 * 3_600_000; t += 29_000) instants.push(t);
    }
    for (let i = 0; i < 1000; i++) instants.push(Date.UTC(2020, 0, 1) + Math.floor(random() * 10 * 365 * 86_400_000));
    for (const zone of ZONES) for (const t of instants) expect(wallClock(t, zone)).toEqual(intlWallClock(t, zone));
  });

  it('finds the instant of a local time across a spring-forward gap and a fall-back repeat', () => {
    // 02:30 does not exist on 29 March 2026 in Brussels: it moves to 03:30 (+02:00), i.e. 01:30 UTC.
    expect(instantOf(2026, 3, 29, 150, 'Europe/Brussels')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    // 02:30 happens twice on 25 October 2026: the first (still +02:00) is 00:30 UTC.
    expect(instantOf(2026, 10, 25, 150, 'Europe/Brussels')).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });
});
