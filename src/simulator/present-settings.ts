import { isWithinBusinessHours } from './business-hours.js';
import { weekdayOut } from './guesses.js';
import type { Schedule, User } from './model.js';
import type { Runtime } from './runtime.js';

export function scheduleIsActive(rt: Runtime, s: Schedule): boolean {
  return isWithinBusinessHours(s.periods, s.timezone, rt.now());
}

export function presentSchedule(rt: Runtime, s: Schedule): Record<string, unknown> {
  const users = [...rt.state.users.values()].filter((u) => u.scheduleId === s.id);
  return {
    id: s.id,
    name: s.name,
    timezone: s.timezone,
    periods: s.periods.map((p) => ({ ...p, dayofweek: weekdayOut(p.dayofweek, rt.realism.weekday_numbering) })),
    is_active: scheduleIsActive(rt, s),
    users: {
      total: users.length,
      available: users.filter((u) => u.status === 'Available').length,
      busy: users.filter((u) => u.status === 'Busy').length,
      unavailable: users.filter((u) => u.status === 'Unavailable').length,
    },
  };
}

export function presentUser(rt: Runtime, u: User): Record<string, unknown> {
  const role = rt.state.roles.get(u.roleId);
  const schedule = u.scheduleId ? rt.state.schedules.get(u.scheduleId) : undefined;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    account_role: role
      ? {
          id: role.id,
          name: role.name,
          topics: role.topics.map((id) => ({ id, name: rt.state.topics.get(id)?.name ?? '' })),
          permissions: [...role.permissions],
        }
      : null,
    business_hours_schedule_id: u.scheduleId,
    status: u.status,
    businesshours_is_active: schedule ? scheduleIsActive(rt, schedule) : false,
    avatar: u.avatar,
  };
}
