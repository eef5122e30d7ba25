import { isOpen, type BusinessHoursSchedule } from '../bot/index.js';
import type { ProbeResult } from './guess-report.js';

/**
 * How an account numbers the weekdays of its business hours (issue 26: the description does not say). The brain
 * counts 0 = Sunday .. 6 = Saturday (`sunday0`).
 */
export type WeekdayNumbering = 'sunday0' | 'monday0' | 'sunday1' | 'monday1';
const ALL: readonly WeekdayNumbering[] = ['sunday0', 'monday0', 'sunday1', 'monday1'];

/** A weekday in `numbering` as 0 = Sunday .. 6 = Saturday. */
export function toSunday0(day: number, numbering: WeekdayNumbering): number {
  const zeroBased = day - (numbering.endsWith('1') ? 1 : 0);
  return numbering.startsWith('monday') ? (zeroBased + 1) % 7 : ((zeroBased % 7) + 7) % 7;
}

function converted(s: BusinessHoursSchedule, n: WeekdayNumbering): BusinessHoursSchedule {
  return { ...s, periods: s.periods.map((p) => ({ ...p, dayofweek: toSunday0(p.dayofweek, n) })) };
}

/**
 * The numbering the schedules use, read from what they show: a 7 means counting from 1, a 0 from 0; which day comes
 * first is read from the service's own `is_active`, compared with the hours under each numbering now. When nothing
 * tells them apart, the brain's own (`sunday0`) stands. `doctor` and the start-up record say which.
 */
export function detectWeekdayNumbering(
  schedules: readonly BusinessHoursSchedule[],
  nowMs: number,
): { numbering: WeekdayNumbering; probe: ProbeResult } {
  const days = schedules.flatMap((s) => s.periods.map((p) => p.dayofweek));
  let candidates = ALL.filter((n) => (days.includes(7) ? n.endsWith('1') : days.includes(0) ? n.endsWith('0') : true));
  const judged = schedules.filter((s) => s.is_active !== undefined && s.periods.length > 0);
  const agreeing = candidates.filter((n) => judged.every((s) => isOpen(converted(s, n), nowMs) === s.is_active));
  if (agreeing.length > 0) candidates = agreeing;
  const numbering = candidates.includes('sunday0') ? 'sunday0' : (candidates[0] ?? 'sunday0');
  const how = candidates.length === 1 ? 'read from the days shown and the service’s is_active' : 'not told apart; the default stands';
  return {
    numbering,
    probe: { holds: numbering === 'sunday0', detail: `business hours number weekdays ${describe(numbering)} (${how})` },
  };
}

function describe(n: WeekdayNumbering): string {
  return `from ${n.startsWith('monday') ? 'Monday' : 'Sunday'} = ${n.endsWith('1') ? 1 : 0}`;
}

/** The schedules with their weekdays in the brain's numbering. */
export function inSunday0(schedules: readonly BusinessHoursSchedule[], numbering: WeekdayNumbering): BusinessHoursSchedule[] {
  return numbering === 'sunday0' ? [...schedules] : schedules.map((s) => converted(s, numbering));
}
