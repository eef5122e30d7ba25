import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultSeed } from '../../src/simulator/index.js';

/**
 * Writes the demo seed with the support desk open around the clock, so an escalation goes to people at once
 * whatever the hour the bench runs at (the default desk is closed nights and weekends, which queues them).
 */
export async function writeOpenHoursSeed(dir: string): Promise<string> {
  const seed = {
    ...defaultSeed,
    business_hours_schedules: defaultSeed.business_hours_schedules.map((s) => ({
      ...s,
      periods: [0, 1, 2, 3, 4, 5, 6].map((dayofweek) => ({ dayofweek, start: '0000', end: '2400' })),
    })),
  };
  const file = join(dir, 'open-hours-seed.json');
  await writeFile(file, JSON.stringify(seed, null, 2));
  return file;
}
