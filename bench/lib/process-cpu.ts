import { readFile } from 'node:fs/promises';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ): 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in ms, from `/proc/<pid>/stat`; null off Linux or once it
 * exited. The machine is shared, so wall-clock throughput is noisy; the bridge's own CPU per answered message is not.
 */
export async function processCpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
