import { readFile } from 'node:fs/promises';

/**
 * What tells one process from another that happens to get the same pid: the boot it runs in and the
 * moment (in clock ticks since boot) the kernel started it. In a container the bridge is always pid 1,
 * so a pid alone cannot tell a restarted bridge from the one that was killed.
 */
export interface ProcessIdentity {
  bootId?: string;
  startTicks?: string;
}

/** Linux only (`/proc`); elsewhere the identity is empty and a lock falls back to the pid alone. */
export async function processIdentity(pid: number): Promise<ProcessIdentity | undefined> {
  const startTicks = await readStartTicks(pid);
  if (startTicks === undefined) return undefined;
  const bootId = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  return bootId === undefined ? { startTicks } : { bootId, startTicks };
}

async function readStartTicks(pid: number): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its last `)`.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Field 22 (starttime) is the 20th after the name.
  const ticks = rest[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/**
 * Whether the recorded identity can be the live process `current`: both known and different means the
 * pid was reused (another boot, or another start). Unknown on either side counts as the same.
 */
export function sameProcess(recorded: ProcessIdentity, current: ProcessIdentity | undefined): boolean {
  if (!current) return true;
  if (recorded.bootId !== undefined && current.bootId !== undefined && recorded.bootId !== current.bootId) return false;
  if (recorded.startTicks !== undefined && current.startTicks !== undefined && recorded.startTicks !== current.startTicks) return false;
  return true;
}
