// The store's CPU per answered message, in one process, without the network or the simulator: every store call the
// bridge makes for one customer message and the echo of its reply, in the bridge's order, for many contacts at once.
// A steadier figure than the end-to-end bench on a shared machine. Prints one JSON object.
// Bytes: `storeBytesPerMessage` sums the values the store's statements bind (the rows' text and numbers, 8 bytes a
// number) per message; `ioBytesPerMessage` is what the process handed to write() meanwhile (Linux `/proc/self/io`
// wchar: the WAL's whole pages, checkpoints included, the one at close too), per message; `diskBytesPerMessage` what the
// kernel counted as written to the disk (`write_bytes`, as `npm run bench`'s `disk_bytes_per_answer`: a 4 KB page
// each time one clean becomes dirty, and every fsync cleans them), per message. `fsyncsPerMessage`: commits per message.
// Usage: npx tsx bench/store-message-cost.ts [--contacts 200] [--rounds 10] [--repeat 3] [--memory] [--against DIR]
//          [--window MS] [--rate PER_S] [--api-ms MS] [--poll MS]
//   --window MS: the store's commit window (`writeIntervalMs`, BRIDGE_COMMIT_WINDOW_MS); without it, the store's default;
//   --rate PER_S: messages start at this overall rate, round-robin over the contacts (default: all at once, each
//   contact's next message when its last is done); --api-ms MS: the reply's publish call and the echo's way back each
//   take this long (default 0). With them, `fsyncsPerSecond` and `decidedMs` (a message's start to its decision
//   flushed, when the reply may go: p50, p99) say what a commit window costs and saves at a given load.
//   --poll MS: mentions arrive in batches, as a poller every MS reads them (a message and its echo wait for the next
//   read), as in `npm run bench`'s steady-poll (1000); without it, each as it comes, as webhooks push them.
//   --memory: the memory store (the same store on an in-memory SQLite database: no file I/O);
//   --against DIR: also another checkout's store (e.g. a `git worktree add /tmp/base <commit>`), runs taking turns in this
//   one process, so both see the same load on a shared machine.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as here from '../src/storage/index.js';
import { driveLoad, seedContacts } from './lib/store-message.js';

type StoreModule = Pick<typeof here, 'openSqliteStore' | 'createMemoryStore' | 'mentionRef'>;

/** A number option that may be 0; undefined when absent. */
function optional(name: string): number | undefined {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

const commitWindow = optional('window');
const rate = optional('rate') ?? 0;
const apiMs = optional('api-ms') ?? 0;
const pollMs = optional('poll') ?? 0;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

async function run(
  storage: StoreModule,
  contacts: number,
  rounds: number,
): Promise<{
  cpuMsPerMessage: number;
  wallMsPerMessage: number;
  storeBytesPerMessage: number;
  ioBytesPerMessage: number | null;
  diskBytesPerMessage: number | null;
  fsyncsPerMessage: number;
  fsyncsPerSecond: number;
  decidedMs: { p50: number; p99: number };
}> {
  const dir = await mkdtemp(join(tmpdir(), 'store-message-cost-'));
  try {
    const store = process.argv.includes('--memory')
      ? storage.createMemoryStore()
      : await storage.openSqliteStore({ dataDir: dir, ...(commitWindow === undefined ? {} : { writeIntervalMs: commitWindow }) });
    const keys = await seedContacts(store, contacts);
    await store.flush();
    const statsBefore = store.stats();
    const ioBefore = await writtenBytes();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const decided = await driveLoad(store, keys, rounds, { rate, apiMs, pollMs });
    await store.flush();
    const used = process.cpuUsage(cpu);
    const wall = performance.now() - started;
    const statsAfter = store.stats();
    // After the close: its last checkpoint copies into the database file what the WAL holds, and counts too.
    await store.close();
    const ioAfter = await writtenBytes();
    const messages = contacts * rounds;
    return {
      cpuMsPerMessage: Math.round(((used.user + used.system) / 1000 / messages) * 1000) / 1000,
      wallMsPerMessage: Math.round((wall / messages) * 1000) / 1000,
      storeBytesPerMessage: Math.round((statsAfter.journalBytes - statsBefore.journalBytes) / messages),
      ioBytesPerMessage: ioBefore === null || ioAfter === null ? null : Math.round((ioAfter.wchar - ioBefore.wchar) / messages),
      diskBytesPerMessage: ioBefore === null || ioAfter === null ? null : Math.round((ioAfter.disk - ioBefore.disk) / messages),
      fsyncsPerMessage: Math.round(((statsAfter.fsyncs - statsBefore.fsyncs) / messages) * 1000) / 1000,
      fsyncsPerSecond: Math.round(((statsAfter.fsyncs - statsBefore.fsyncs) / wall) * 1000 * 10) / 10,
      decidedMs: { p50: nearestRank(decided, 0.5), p99: nearestRank(decided, 0.99) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function nearestRank(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN) * 10) / 10;
}

/** Bytes this process passed to write() so far, and those the kernel counted for the disk (Linux); null elsewhere. */
async function writtenBytes(): Promise<{ wchar: number; disk: number } | null> {
  const io = await readFile('/proc/self/io', 'utf8').catch(() => '');
  const wchar = /^wchar: (\d+)$/m.exec(io);
  const disk = /^write_bytes: (\d+)$/m.exec(io);
  return wchar && disk ? { wchar: Number(wchar[1]), disk: Number(disk[1]) } : null;
}

const contacts = argument('contacts', 200);
const rounds = argument('rounds', 10);
const againstIndex = process.argv.indexOf('--against');
const against = againstIndex >= 0 ? process.argv[againstIndex + 1] : undefined;
const stores: Array<[string, StoreModule]> = [['here', here]];
if (against) stores.push([against, (await import(resolve(against, 'src/storage/index.ts'))) as StoreModule]);
const runs: Record<string, Array<Awaited<ReturnType<typeof run>>>> = Object.fromEntries(stores.map(([name]) => [name, []]));
for (let i = 0; i < argument('repeat', 3); i++) {
  for (const [name, storage] of stores) runs[name]?.push(await run(storage, contacts, rounds));
}
const median = (name: string): number => {
  const cpu = (runs[name] ?? []).map((r) => r.cpuMsPerMessage).sort((a, b) => a - b);
  return cpu[Math.floor(cpu.length / 2)] ?? Number.NaN;
};
const store = process.argv.includes('--memory') ? 'memory' : 'file';
if (against) {
  const medians = Object.fromEntries(stores.map(([name]) => [name, median(name)]));
  process.stdout.write(`${JSON.stringify({ contacts, rounds, store, median_cpu_ms_per_message: medians, runs })}\n`);
} else {
  process.stdout.write(`${JSON.stringify({ contacts, rounds, store, median_cpu_ms_per_message: median('here'), runs: runs.here })}\n`);
}
