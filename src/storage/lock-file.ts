import { readFile, rm, writeFile } from 'node:fs/promises';
import { StoreError, describeCause } from './store-error.js';
import type { StoreLogger } from './store-options.js';

export interface LockHandle {
  release(): Promise<void>;
}

interface LockContent extends ProcessIdentity {
  pid: number;
  startedAt: string;
}

/**
 * One process per data directory: the lock file holds the owner's pid, boot id and start time. A lock
 * whose pid is dead, or names a pid now used by another process (a container's pid 1 restarted after
 * `kill -9`, or another boot), is a leftover of a crash and is taken over; a live holder (this process
 * included) refuses the second open.
 */
export async function acquireLock(lockPath: string, dataDir: string, logger: StoreLogger): Promise<LockHandle> {
  const self = await processIdentity(process.pid);
  const content: LockContent = { pid: process.pid, ...self, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(lockPath, `${JSON.stringify(content)}\n`, { flag: 'wx', mode: 0o600 });
      return { release: () => releaseLock(lockPath, self) };
    } catch (error) {
      if (!isCode(error, 'EEXIST')) {
        throw new StoreError('io', `Cannot create the lock file ${lockPath}: ${describeCause(error)}.`, { cause: error });
      }
    }
    const holder = await readHolder(lockPath);
    if (holder === 'gone') continue;
    if (holder === 'unreadable') {
      throw new StoreError(
        'locked',
        `The data directory ${dataDir} has a lock file (${lockPath}) that names no process. If no engage-bridge is running on it, delete that file and start again.`,
      );
    }
    if ((await holds(holder)) || attempt > 0) {
      throw new StoreError(
        'locked',
        `The data directory ${dataDir} is in use by process ${holder.pid} (since ${holder.startedAt}). Stop that process or choose another BRIDGE_DATA_DIR.`,
      );
    }
    logger.warn(
      { dataDir, stalePid: holder.pid },
      `taking over the lock of ${dataDir} from process ${holder.pid}, which is no longer running (or its pid now belongs to another process)`,
    );
    await rm(lockPath, { force: true });
  }
}

async function readHolder(lockPath: string): Promise<LockContent | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return 'gone';
    throw new StoreError('io', `Cannot read the lock file ${lockPath}: ${describeCause(error)}.`, { cause: error });
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockContent>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0) {
      const holder: LockContent = { pid: parsed.pid, startedAt: String(parsed.startedAt ?? 'unknown') };
      if (typeof parsed.bootId === 'string') holder.bootId = parsed.bootId;
      if (typeof parsed.startTicks === 'string') holder.startTicks = parsed.startTicks;
      return holder;
    }
  } catch {
    // A lock being written this very moment is empty: never treat it as stale.
  }
  return 'unreadable';
}

/** The holder is alive and is the very process that wrote the lock (not a later one with its pid). */
async function holds(holder: LockContent): Promise<boolean> {
  if (!isAlive(holder.pid)) return false;
  return sameProcess(holder, await processIdentity(holder.pid));
}

/** Signal 0 probes without touching the process: EPERM still means it exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isCode(error, 'EPERM');
  }
}

async function releaseLock(lockPath: string, self: ProcessIdentity | undefined): Promise<void> {
  const holder = await readHolder(lockPath).catch(() => 'unreadable' as const);
  // Only remove our own lock: a process that took over a lock we lost must keep it.
  if (typeof holder === 'object' && holder.pid === process.pid && sameProcess(holder, self)) await rm(lockPath, { force: true });
}

export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

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
