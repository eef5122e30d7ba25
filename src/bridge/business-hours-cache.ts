// The structured-logging port the API client defines; pino satisfies it, and stays in the composition root.
import type { EngageLogger as Logger } from '../engage/index.js';
import type { BusinessHoursSchedule as EngageSchedule, CannedResponse as EngageCanned } from '../engage/index.js';
import type { BusinessHoursSchedule, CannedResponse, HoursInput } from '../bot/index.js';
import type { BridgeEngage } from './bridge-engage.js';
import type { ProbeResult } from './guess-report.js';
import { detectWeekdayNumbering, inSunday0 } from './weekday-numbering.js';

/** How fresh the service's `is_active` must be to be trusted over the calculator (it flips at opening time). */
const LIVE_FLAG_MAX_AGE_MS = 60_000;

function toBotSchedule(s: EngageSchedule): BusinessHoursSchedule {
  return {
    id: s.id,
    name: s.name,
    timezone: s.timezone,
    periods: s.periods.map((p) => ({ dayofweek: p.dayofweek, start: p.start, end: p.end })),
    ...(s.is_active === undefined ? {} : { is_active: s.is_active }),
    ...(s.users ? { users: { ...s.users } } : {}),
  };
}

/** Read case-tolerantly: the description names the types, not their case (issue 26). */
export function toBotCanned(c: EngageCanned): CannedResponse | undefined {
  const type = c.type?.toLowerCase();
  if (type !== 'buttons' && type !== 'text' && type !== 'csat' && type !== 'nps') return undefined;
  return {
    id: c.id,
    name: c.name ?? c.id,
    type,
    ...(c.message ? { message: c.message } : {}),
    data: { buttons: (c.data?.buttons ?? []).map((b) => ({ id: b.id, title: b.title, ...(b.payload ? { payload: b.payload } : {}) })) },
  };
}

/**
 * The account's business hours schedule (the configured one, or the first) and canned responses, fetched
 * and refreshed; the brain gets them as plain data.
 */
export class BusinessHoursCache {
  private schedule: BusinessHoursSchedule | undefined;
  private schedules: BusinessHoursSchedule[] = [];
  private canned: CannedResponse[] = [];
  private fetchedAt = 0;
  /** What the last refresh read of the weekday numbering (`status`, `doctor`). */
  numbering: ProbeResult | undefined;

  constructor(
    private readonly engage: Pick<BridgeEngage, 'businessHours' | 'cannedResponses'>,
    private readonly wanted: string | undefined,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Fetches both lists; a failure keeps what was known and is reported to the caller. */
  async refresh(): Promise<void> {
    const schedules: BusinessHoursSchedule[] = [];
    for await (const page of this.engage.businessHours.listPages({ limit: 200 })) schedules.push(...page.data.map(toBotSchedule));
    const canned: CannedResponse[] = [];
    for await (const page of this.engage.cannedResponses.listPages()) {
      for (const c of page.data) {
        const converted = toBotCanned(c);
        if (converted) canned.push(converted);
      }
    }
    // The weekday numbering is read from what the schedules show (issue 26), and the brain gets its own.
    const found = detectWeekdayNumbering(schedules, this.now());
    this.numbering = found.probe;
    if (!found.probe.holds) this.log.warn({ numbering: found.numbering }, found.probe.detail);
    this.schedules = inSunday0(schedules, found.numbering);
    this.canned = canned;
    this.fetchedAt = this.now();
    const wanted = this.wanted;
    this.schedule = wanted
      ? this.schedules.find((s) => String(s.id) === wanted || s.name.toLowerCase() === wanted.toLowerCase())
      : this.schedules[0];
    if (wanted && !this.schedule) {
      this.log.warn({ schedule: wanted }, 'the configured business hours schedule was not found: hours are not applied');
    }
  }

  current(): BusinessHoursSchedule | undefined {
    return this.schedule;
  }

  all(): readonly BusinessHoursSchedule[] {
    return this.schedules;
  }

  /** Canned responses of the account (menus name theirs), refreshed with the business hours. */
  cannedResponses(): readonly CannedResponse[] {
    return this.canned;
  }

  /** What the brain is told about hours now. */
  input(): HoursInput {
    const s = this.schedule;
    if (!s) return {};
    const fresh = this.now() - this.fetchedAt <= LIVE_FLAG_MAX_AGE_MS;
    const { is_active: _flag, ...plain } = s;
    return {
      schedule: plain,
      ...(fresh && s.is_active !== undefined ? { isActive: s.is_active } : {}),
      ...(s.users?.available !== undefined ? { agentsAvailable: s.users.available } : {}),
    };
  }
}
