// Business hours in words a customer reads: "Monday at 09:00", "Monday–Friday 09:00–17:00".
import type { BusinessHoursSchedule } from './types.js';
import { wallClock } from './zoned-time.js';

export interface HoursWords {
  locale: string;
  today: string;
  tomorrow: string;
  at: string;
}

export const ENGLISH_HOURS_WORDS: HoursWords = { locale: 'en', today: 'today', tomorrow: 'tomorrow', at: 'at' };

const pad = (n: number): string => String(n).padStart(2, '0');

// Building an Intl formatter costs far more than using one, and every turn that mentions the hours needs some.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, kind: 'weekday' | 'time' | 'date'): Intl.DateTimeFormat {
  const key = `${kind}|${locale}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'weekday'
        ? { weekday: 'long', timeZone: 'UTC' }
        : kind === 'time'
          ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }
          : { day: 'numeric', month: 'long', timeZone: 'UTC' };
    f = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= 300) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

function weekdayName(weekday: number, locale: string): string {
  // 2023-01-01 was a Sunday, so day 1 + weekday lands on the wanted weekday.
  return formatter(locale, 'weekday').format(new Date(Date.UTC(2023, 0, 1 + weekday)));
}

function clockTime(hour: number, minute: number, locale: string): string {
  try {
    // 24-hour clock in every language (the schedule's own notation), with the language's separator.
    return formatter(locale, 'time').format(new Date(Date.UTC(2023, 0, 1, hour, minute)));
  } catch {
    return `${pad(hour)}:${pad(minute)}`;
  }
}

/** Local clock time of an instant, "17:00". */
export function describeTime(instantMs: number, timeZone: string, locale = 'en'): string {
  const w = wallClock(instantMs, timeZone);
  return clockTime(w.hour, w.minute, locale);
}

/** An instant relative to now, in the schedule's zone: "today at 13:00", "tomorrow at 09:00", "Monday at 09:00". */
export function describeMoment(instantMs: number, nowMs: number, timeZone: string, words: HoursWords = ENGLISH_HOURS_WORDS): string {
  const then = wallClock(instantMs, timeZone);
  const now = wallClock(nowMs, timeZone);
  const days = Math.round((Date.UTC(then.year, then.month - 1, then.day) - Date.UTC(now.year, now.month - 1, now.day)) / 86_400_000);
  const time = clockTime(then.hour, then.minute, words.locale);
  if (days <= 0) return `${words.today} ${words.at} ${time}`;
  if (days === 1) return `${words.tomorrow} ${words.at} ${time}`;
  const day = weekdayName(then.weekday, words.locale);
  if (days < 7) return `${day} ${words.at} ${time}`;
  const date = formatter(words.locale, 'date').format(new Date(Date.UTC(then.year, then.month - 1, then.day)));
  return `${day} ${date} ${words.at} ${time}`;
}

const hhmm = (s: string): string => `${s.slice(0, 2)}:${s.slice(2)}`;

/** describeWeek's last answers per periods array (the schedule object around it is new each turn), by locale. */
const weeks = new WeakMap<object, Map<string, string>>();

/** The weekly opening hours, Monday first, equal consecutive days joined: "Monday–Friday 09:00–17:00". */
export function describeWeek(schedule: BusinessHoursSchedule, locale = 'en'): string {
  // The same words for the same periods: every turn that fills {hours_week} or {hours_status} asks again.
  let byLocale = weeks.get(schedule.periods);
  if (!byLocale) {
    byLocale = new Map();
    weeks.set(schedule.periods, byLocale);
  }
  let words = byLocale.get(locale);
  if (words === undefined) {
    words = weekInWords(schedule, locale);
    if (byLocale.size >= 50) byLocale.clear();
    byLocale.set(locale, words);
  }
  return words;
}

function weekInWords(schedule: BusinessHoursSchedule, locale: string): string {
  const order = [1, 2, 3, 4, 5, 6, 0];
  const spans = order.map((d) =>
    schedule.periods
      .filter((p) => p.dayofweek === d && p.start < p.end)
      .sort((a, b) => a.start.localeCompare(b.start))
      .map((p) => `${hhmm(p.start)}–${hhmm(p.end)}`)
      .join(', '),
  );
  const parts: string[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && spans[j + 1] === spans[i]) j++;
    const span = spans[i];
    if (span) {
      const first = weekdayName(order[i] ?? 0, locale);
      const days = i === j ? first : `${first}–${weekdayName(order[j] ?? 0, locale)}`;
      parts.push(`${days} ${span}`);
    }
    i = j + 1;
  }
  return parts.join('; ');
}
