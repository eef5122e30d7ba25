import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/commands/run-command.js';
import type { BusinessHoursSchedule } from '../../src/engage/schemas/index.js';
import { fakeDeps, manager } from './fake-deps.js';

const weekdays = [1, 2, 3, 4, 5].map((d) => ({ dayofweek: d, start: '0900', end: '1700' }));
const support: BusinessHoursSchedule = {
  id: '1',
  name: 'Support desk',
  timezone: 'Europe/Brussels',
  periods: weekdays,
  users: { total: 3, available: 1, busy: 1, unavailable: 1 },
};
const night: BusinessHoursSchedule = { id: '2', name: 'Night shift', timezone: 'America/New_York', periods: [], users: null };

const list = async () => [support, night];

describe('hours', () => {
  it('shows every schedule: open now until when, in its own time zone, and the users', async () => {
    // Monday 2026-11-23 10:00 UTC is 11:00 in Brussels.
    const deps = fakeDeps({ engage: { businessHours: { list } }, now: new Date('2026-11-23T10:00:00Z') });
    const answer = await runCommand('hours', { actor: manager, deps });
    expect(answer.ok).toBe(true);
    expect(answer.text).toBe(
      [
        'Support desk (Europe/Brussels, id 1): open now (11:00 there) until today at 17:00',
        '  hours: Monday–Friday 09:00–17:00',
        '  users: 1 available, 1 busy, 1 unavailable (of 3)',
        'Night shift (America/New_York, id 2): closed now (05:00 there), no opening hours set',
        '  hours: no periods',
        '  users: unknown',
      ].join('\n'),
    );
  });

  it('gives the next opening of the one schedule named, by name without case', async () => {
    // Saturday 2026-11-28 12:00 UTC.
    const deps = fakeDeps({ engage: { businessHours: { list } }, now: new Date('2026-11-28T12:00:00Z') });
    const answer = await runCommand('hours support DESK', { actor: manager, deps });
    expect(answer.text.split('\n')[0]).toBe('Support desk (Europe/Brussels, id 1): closed now (13:00 there); next opening Monday at 09:00');
    expect(answer.text).not.toContain('Night shift');
  });

  it('names the schedules there are when the one asked for is unknown', async () => {
    const deps = fakeDeps({ engage: { businessHours: { list } } });
    const answer = await runCommand('hours 99', { actor: manager, deps });
    expect(answer).toMatchObject({ ok: false, text: 'No schedule is called "99". Schedules: "Support desk" (1), "Night shift" (2).' });
  });

  it('does not fail on a schedule with an unknown time zone', async () => {
    const deps = fakeDeps({
      engage: { businessHours: { list: async () => [{ ...support, timezone: 'Mars/Olympus' }] } },
    });
    const answer = await runCommand('hours', { actor: manager, deps });
    expect(answer.text).toContain('cannot tell: unknown time zone "Mars/Olympus"');
  });
});
