import type { Period } from './model.js';

const WEEKDAY: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timezone, f);
  }
  return f;
}

/** Day of week (0 = Sunday) and HHMM as a number, at `nowSeconds`, in the time zone. */
export function localDayAndTime(nowSeconds: number, timezone: string): { dayofweek: number; hhmm: number } {
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timezone).formatToParts(new Date(nowSeconds * 1000))) {
    if (part.type === 'weekday') day = WEEKDAY[part.value] ?? 0;
    else if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { dayofweek: day, hhmm: hour * 100 + minute };
}

/** Whether `nowSeconds` falls in one of the periods (start inclusive, end exclusive, `2400` = midnight). */
export function isWithinBusinessHours(periods: readonly Period[], timezone: string, nowSeconds: number): boolean {
  const { dayofweek, hhmm } = localDayAndTime(nowSeconds, timezone);
  return periods.some((p) => p.dayofweek === dayofweek && Number(p.start) <= hhmm && hhmm < Number(p.end));
}
