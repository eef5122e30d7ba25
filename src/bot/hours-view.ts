// The business hours as the brain needs them in one turn: open? agents? and the phrases for texts.
import type { Flows } from './flow-schema.js';
import type { HoursInput } from './bot-event.js';
import { hoursStatus, nextOpening } from './business-hours.js';
import { describeMoment, describeTime, describeWeek } from './describe-hours.js';

export interface HoursView {
  open: boolean;
  agents: boolean;
  /** When people are back, in words ("Monday at 09:00"); undefined when unknown. */
  back?: string;
  /** When the next opening is (epoch ms), for queued escalations. */
  reopensAt?: number;
  until?: string;
  /** A sentence for `{hours_status}`. */
  status: string;
  week: string;
}

function agentsFrom(hours: HoursInput | undefined): boolean {
  const a = hours?.agentsAvailable;
  if (typeof a === 'boolean') return a;
  if (typeof a === 'number') return a > 0;
  const users = hours?.schedule?.users;
  if (users && typeof users.available === 'number') return users.available > 0;
  return true;
}

/** Never throws: a schedule the calculator cannot read (unknown time zone) counts as no schedule. */
export function hoursView(flows: Flows, hours: HoursInput | undefined, nowMs: number, language = flows.languages.default): HoursView {
  const bh = flows.business_hours;
  const locale = bh.locale ?? language;
  const words = { locale, today: bh.today, tomorrow: bh.tomorrow, at: bh.at };
  const schedule = hours?.schedule;
  const agents = agentsFrom(hours);
  if (!schedule) {
    const open = hours?.isActive ?? true;
    return { open, agents, status: bh.unknown, week: '' };
  }
  try {
    const calc = hoursStatus(schedule, nowMs);
    const open = hours?.isActive ?? calc.open;
    const tz = schedule.timezone;
    const week = describeWeek(schedule, locale);
    const reopensAt = calc.open ? nextOpening(schedule, nowMs) : calc.nextOpening;
    const back = reopensAt !== undefined ? describeMoment(reopensAt, nowMs, tz, words) : undefined;
    const until = calc.open && calc.until !== undefined ? describeTime(calc.until, tz, locale) : undefined;
    let status: string;
    if (open && calc.open) status = until !== undefined ? bh.open : bh.open_around_the_clock;
    else if (!open && back !== undefined) status = bh.closed;
    else status = bh.unknown;
    return {
      open,
      agents,
      ...(back !== undefined ? { back } : {}),
      ...(reopensAt !== undefined ? { reopensAt } : {}),
      ...(until !== undefined ? { until } : {}),
      status,
      week,
    };
  } catch {
    return { open: hours?.isActive ?? true, agents, status: bh.unknown, week: '' };
  }
}
