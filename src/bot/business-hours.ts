// A pure calculator over a business hours schedule: open now? until when? next opening?
// Shared by the brain, the bridge's scheduler and the managers' `hours` command.
import type { BusinessHoursSchedule } from './types.js';
import { instantOf, wallClock, assertTimeZone, type WallClock } from './zoned-time.js';

export interface HoursStatus {
  open: boolean;
  /** When the current opening ends (epoch ms); undefined when closed, or open around the clock. */
  until?: number;
  /** The next opening (epoch ms) when closed; undefined when the schedule has no periods. */
  nextOpening?: number;
}

interface Interval {
  start: number;
  end: number;
}

/** Days looked at on each side of now: enough to chain a week of back-to-back periods. */
const HORIZON_DAYS = 16;

function minuteOf(hhmm: string): number | undefined {
  if (!/^\d{4}$/.test(hhmm)) return undefined;
  const h = Number(hhmm.slice(0, 2));
  const m = Number(hhmm.slice(2));
  if (m > 59 || h > 24 || (h === 24 && m !== 0)) return undefined;
  return h * 60 + m;
}

/**
 * The intervals of the last day asked, per periods list: every turn that fills an hours text asks (twice) for the
 * same day, and each answer costs dozens of zone conversions. Keyed by the periods array (the schedule object around
 * it may be new each turn) and its day in the zone, so the answer is the one computed afresh; one day kept per list.
 */
const lastDay = new WeakMap<object, { key: string; intervals: readonly Readonly<Interval>[] }>();

function intervalsAround(schedule: BusinessHoursSchedule, nowMs: number): readonly Readonly<Interval>[] {
  const tz = schedule.timezone;
  const today = wallClock(nowMs, tz);
  const key = `${tz}|${today.year}-${today.month}-${today.day}`;
  const cached = lastDay.get(schedule.periods);
  if (cached?.key === key) return cached.intervals;
  const intervals = computeIntervals(schedule, today);
  lastDay.set(schedule.periods, { key, intervals });
  return intervals;
}

function computeIntervals(schedule: BusinessHoursSchedule, today: WallClock): readonly Readonly<Interval>[] {
  const tz = schedule.timezone;
  const out: Interval[] = [];
  for (let offset = -2; offset <= HORIZON_DAYS; offset++) {
    const weekday = (((today.weekday + offset) % 7) + 7) % 7;
    for (const p of schedule.periods) {
      if (p.dayofweek !== weekday) continue;
      const from = minuteOf(p.start);
      const to = minuteOf(p.end);
      // A period that ends before it starts is malformed; ignoring it beats guessing an overnight span.
      if (from === undefined || to === undefined || from >= to || from >= 1440) continue;
      const day = today.day + offset;
      out.push({
        start: instantOf(today.year, today.month, day, from, tz),
        end: instantOf(today.year, today.month, day, to, tz),
      });
    }
  }
  out.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const i of out) {
    const last = merged[merged.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return Object.freeze(merged.map((i) => Object.freeze(i)));
}

/** Where the schedule stands at `now`. Throws a RangeError for an unknown time zone. */
export function hoursStatus(schedule: BusinessHoursSchedule, now: Date | number): HoursStatus {
  assertTimeZone(schedule.timezone);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const intervals = intervalsAround(schedule, nowMs);
  const horizonEnd = nowMs + (HORIZON_DAYS - 1) * 86_400_000;
  const current = intervals.find((i) => i.start <= nowMs && nowMs < i.end);
  if (current) {
    return current.end >= horizonEnd ? { open: true } : { open: true, until: current.end };
  }
  const next = intervals.find((i) => i.start > nowMs);
  return next ? { open: false, nextOpening: next.start } : { open: false };
}

export function isOpen(schedule: BusinessHoursSchedule, now: Date | number): boolean {
  return hoursStatus(schedule, now).open;
}

/** The next moment the schedule opens after `now` (the current opening does not count). */
export function nextOpening(schedule: BusinessHoursSchedule, now: Date | number): number | undefined {
  assertTimeZone(schedule.timezone);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  return intervalsAround(schedule, nowMs).find((i) => i.start > nowMs)?.start;
}
