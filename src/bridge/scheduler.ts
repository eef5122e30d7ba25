import { schedule as cronSchedule, type ScheduledTask } from 'node-cron';
import type { BusinessHoursSchedule } from '../bot/index.js';
import type { BridgeContext } from './bridge-context.js';

export interface SchedulerJobs {
  reconcile(): Promise<unknown>;
  refreshHours(): Promise<unknown>;
  housekeeping(): Promise<unknown>;
  /** Deletes what the retention settings no longer allow (transcript lines, old archives, survey answers). */
  retention(): Promise<unknown>;
  releaseQueued(): Promise<unknown>;
}

/** When the daily jobs run (node-cron, seconds first): retention at 03:23 server time, away from the hour's housekeeping. */
export const RETENTION_CRON = '0 23 3 * * *';

/** Cron expressions (seconds first) that fire at every opening of a schedule, in its own time zone. */
export function openingExpressions(schedule: BusinessHoursSchedule): string[] {
  const seen = new Set<string>();
  for (const p of schedule.periods) {
    const m = /^(\d{2})(\d{2})$/.exec(p.start);
    if (!m || p.start === '2400' || p.dayofweek < 0 || p.dayofweek > 6) continue;
    seen.add(`0 ${Number(m[2])} ${Number(m[1])} * * ${p.dayofweek}`);
  }
  return [...seen];
}

/**
 * The bridge's clockwork on node-cron: reconcile ownership, refresh business hours, prune the store, apply the
 * retention settings (daily and at start), and release
 * queued escalations at opening time in the schedule's time zone. No job overlaps itself; none keeps the process alive.
 */
export class Scheduler {
  private tasks: ScheduledTask[] = [];
  private openingTasks: ScheduledTask[] = [];
  private openingKey = '';
  /** The retention run at start, awaited by `stop` so the store is never closed under it. */
  private startRun: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: BridgeContext,
    private readonly jobs: SchedulerJobs,
  ) {}

  start(): void {
    this.tasks = [
      this.task('reconcile', '*/15 * * * * *', () => this.jobs.reconcile()),
      this.task('refresh-hours', '0 */5 * * * *', async () => {
        await this.jobs.refreshHours();
        this.planOpenings();
      }),
      this.task('housekeeping', '0 17 * * * *', () => this.jobs.housekeeping()),
      this.task('retention', RETENTION_CRON, () => this.jobs.retention()),
    ];
    this.planOpenings();
    // Daily, and once now: a bridge restarted every night would otherwise never get to it.
    this.startRun = this.guarded('retention', () => this.jobs.retention());
  }

  /** (Re)creates the opening-time tasks when the schedule changed. */
  planOpenings(): void {
    const s = this.ctx.hours.current();
    const key = s ? `${s.timezone}|${openingExpressions(s).join(';')}` : '';
    if (key === this.openingKey) return;
    this.openingKey = key;
    for (const t of this.openingTasks) void t.destroy();
    this.openingTasks = [];
    if (!s) return;
    for (const expr of openingExpressions(s)) {
      try {
        this.openingTasks.push(this.task('opening', expr, () => this.jobs.releaseQueued(), s.timezone));
      } catch (err) {
        this.ctx.log.warn(
          { timezone: s.timezone, err: (err as Error).message },
          'cannot schedule opening time; queued escalations go out with the next reconcile',
        );
      }
    }
  }

  async stop(): Promise<void> {
    for (const t of [...this.tasks, ...this.openingTasks]) await t.destroy();
    await this.startRun;
    this.tasks = [];
    this.openingTasks = [];
    this.openingKey = '';
  }

  private task(name: string, expr: string, fn: () => Promise<unknown>, timezone?: string): ScheduledTask {
    return cronSchedule(expr, () => this.guarded(name, fn), {
      name: `engage-bridge:${name}`,
      noOverlap: true,
      ...(timezone ? { timezone } : {}),
    });
  }

  private async guarded(name: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.ctx.log.warn({ job: name, err: (err as Error).message }, 'scheduled job failed; it runs again at its next time');
    }
  }
}
