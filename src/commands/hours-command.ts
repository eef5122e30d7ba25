import { describeMoment, describeTime, describeWeek, hoursStatus } from '../bot/index.js';
import type { BusinessHoursSchedule } from '../engage/schemas/index.js';
import type { CommandSpec } from './command-types.js';
import { describeFailure } from './describe-failure.js';

function usersLine(s: BusinessHoursSchedule): string {
  const u = s.users;
  if (!u) return 'users: unknown';
  const n = (v: number | undefined): string => (v === undefined ? '?' : String(v));
  return `users: ${n(u.available)} available, ${n(u.busy)} busy, ${n(u.unavailable)} unavailable${u.total === undefined ? '' : ` (of ${u.total})`}`;
}

/** One schedule in three lines: state now (in its own time zone), the week, and who is there. */
export function describeSchedule(s: BusinessHoursSchedule, nowMs: number): string {
  const plain = { id: s.id, name: s.name, timezone: s.timezone, periods: s.periods };
  let state: string;
  try {
    const status = hoursStatus(plain, nowMs);
    const local = `${describeTime(nowMs, s.timezone)} there`;
    if (status.open) {
      state =
        status.until === undefined
          ? `open now (${local}), around the clock`
          : `open now (${local}) until ${describeMoment(status.until, nowMs, s.timezone)}`;
    } else {
      state =
        status.nextOpening === undefined
          ? `closed now (${local}), no opening hours set`
          : `closed now (${local}); next opening ${describeMoment(status.nextOpening, nowMs, s.timezone)}`;
    }
  } catch {
    state = `cannot tell: unknown time zone "${s.timezone}"`;
  }
  const week = describeWeek(plain) || 'no periods';
  return [`${s.name} (${s.timezone}, id ${s.id}): ${state}`, `  hours: ${week}`, `  ${usersLine(s)}`].join('\n');
}

export const hoursCommand: CommandSpec<'hours'> = {
  name: 'hours',
  usage: ['hours [schedule]'],
  summary: 'shows each business hours schedule (or the one named): open or closed now, until when, next opening, users',
  details: ['[schedule] is a schedule id or its name (quotes optional: hours Support desk).'],
  examples: ['hours', 'hours "Support desk"'],
  parse(args) {
    const schedule = args.join(' ').trim();
    return { ok: true, command: schedule === '' ? { name: 'hours' } : { name: 'hours', schedule } };
  },
  subject: (c) => (c.schedule === undefined ? 'all schedules' : `schedule ${c.schedule}`),
  async run(c, { deps }) {
    const schedules: BusinessHoursSchedule[] = [];
    try {
      for await (const page of deps.engage.businessHours.listPages()) schedules.push(...page.data);
    } catch (error) {
      return { ok: false, text: describeFailure(error, 'the business hours schedules') };
    }
    const wanted = c.schedule?.toLowerCase();
    const chosen = wanted === undefined ? schedules : schedules.filter((s) => s.id === c.schedule || s.name.toLowerCase() === wanted);
    if (chosen.length === 0) {
      const names = schedules.map((s) => `"${s.name}" (${s.id})`).join(', ');
      return {
        ok: false,
        text:
          wanted === undefined
            ? 'The account has no business hours schedules.'
            : `No schedule is called "${c.schedule}". Schedules: ${names || 'none'}.`,
      };
    }
    const nowMs = deps.now().getTime();
    return { ok: true, text: chosen.map((s) => describeSchedule(s, nowMs)).join('\n') };
  },
};
