// Wall-clock arithmetic in an IANA time zone with nothing but Intl.DateTimeFormat.

export interface WallClock {
  year: number;
  month: number; // 1..12
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday .. 6 = Saturday */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new RangeError(`unknown time zone "${timeZone}"`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError naming the zone when the runtime does not know it. */
export function assertTimeZone(timeZone: string): void {
  formatterFor(timeZone);
}

/** The zone's wall clock read from Intl (exact, and slow: a business-hours question needs hundreds of readings). */
function readWallClock(instantMs: number, timeZone: string): WallClock {
  const parts = formatterFor(timeZone).formatToParts(new Date(instantMs));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const year = get('year');
  const month = get('month');
  const day = get('day');
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

function readOffset(instantMs: number, timeZone: string): number {
  const w = readWallClock(instantMs, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instantMs / 1000) * 1000;
}

/**
 * Offsets by zone and quarter hour. A bucket is cached only when its first and last second have the same offset, so
 * a transition inside it (none happen there in today's zones, but history has odd ones) is read exactly each time.
 */
const BUCKET_MS = 15 * 60_000;
const offsets = new Map<string, number | null>();

/** Offset of the zone from UTC at an instant, in milliseconds (east positive). */
function offsetAt(instantMs: number, timeZone: string): number {
  const bucket = Math.floor(instantMs / BUCKET_MS);
  const key = `${timeZone}|${bucket}`;
  let cached = offsets.get(key);
  if (cached === undefined) {
    const first = readOffset(bucket * BUCKET_MS, timeZone);
    cached = readOffset(bucket * BUCKET_MS + BUCKET_MS - 1000, timeZone) === first ? first : null;
    if (offsets.size >= 20_000) offsets.clear();
    offsets.set(key, cached);
  }
  return cached ?? readOffset(instantMs, timeZone);
}

export function wallClock(instantMs: number, timeZone: string): WallClock {
  const d = new Date(Math.floor(instantMs / 1000) * 1000 + offsetAt(instantMs, timeZone));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

const DAY_MS = 86_400_000;

/**
 * The instant a local wall-clock time happens. Same disambiguation as Temporal's 'compatible':
 * a time repeated by a fall-back change is its first occurrence; a time skipped by a spring-forward
 * change moves forward by the length of the gap (02:30 in a 1-hour gap is 03:30).
 * `day` may overflow the month (Date.UTC normalises it), which is how callers step through days.
 */
export function instantOf(year: number, month: number, day: number, minuteOfDay: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day, 0, minuteOfDay);
  const before = offsetAt(guess - DAY_MS, timeZone);
  const after = offsetAt(guess + DAY_MS, timeZone);
  const candidates = [guess - before, guess - after].sort((a, b) => a - b);
  for (const c of candidates) {
    if (offsetAt(c, timeZone) === guess - c) return c;
  }
  return guess - before;
}
