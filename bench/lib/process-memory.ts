import { readFile } from 'node:fs/promises';

/** Peak (VmHWM) and current (VmRSS) resident memory of a process in MB, from /proc; null off Linux or once it exited. */
export async function processMemoryMb(pid: number): Promise<{ peakMb: number; rssMb: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const peak = kb('VmHWM');
    const rss = kb('VmRSS');
    if (!Number.isFinite(peak) || !Number.isFinite(rss)) return null;
    return { peakMb: Math.round((peak / 1024) * 10) / 10, rssMb: Math.round((rss / 1024) * 10) / 10 };
  } catch {
    return null;
  }
}
