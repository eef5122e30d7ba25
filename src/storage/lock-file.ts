import { readFile, rm, writeFile } from 'node:fs/promises';
import { StoreError, describeCause } from './store-error.js';
import type { StoreLogger } from './store-options.js';

export interface LockHandle {
  release(): Promise<void>;
}

interface LockContent {
  pid: number;
  startedAt: string;
}

/**
 * One process per data directory: the lock file holds the owner's pid. A lock whose pid is dead is
 * a leftover of a crash and is taken over; a live one (this process included) refuses the second open.
 */
export async function acquireLock(lockPath: string, dataDir: string, logger: StoreLogger): Promise<LockHandle> {
  const content: LockContent = { pid: process.pid, startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(lockPath, `${JSON.stringify(content)}\n`, { flag: 'wx' });
      return { release: () => releaseLock(lockPath) };
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
    if (isAlive(holder.pid) || attempt > 0) {
      throw new StoreError(
        'locked',
        `The data directory ${dataDir} is in use by process ${holder.pid} (since ${holder.startedAt}). Stop that process or choose another BRIDGE_DATA_DIR.`,
      );
    }
    logger.warn(
      { dataDir, stalePid: holder.pid },
      `taking over the lock of ${dataDir} from process ${holder.pid}, which is no longer running`,
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
      return { pid: parsed.pid, startedAt: String(parsed.startedAt ?? 'unknown') };
    }
  } catch {
    // A lock being written this very moment is empty: never treat it as stale.
  }
  return 'unreadable';
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

async function releaseLock(lockPath: string): Promise<void> {
  const holder = await readHolder(lockPath).catch(() => 'unreadable' as const);
  // Only remove our own lock: a process that took over a lock we lost must keep it.
  if (typeof holder === 'object' && holder.pid === process.pid) await rm(lockPath, { force: true });
}

export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
