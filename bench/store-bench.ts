// Measures the SQLite store with many stored conversations and prints one JSON object.
// Usage: npx tsx bench/store-bench.ts [--conversations 50000] [--lines 6]
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from '../src/storage/index.js';
import type { ConversationRecord, Store } from '../src/storage/index.js';
import { storedConversation } from './lib/seed-store.js';

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** A stored conversation, with a dialog state of a realistic size. */
function record(i: number, lines: number, now: number): ConversationRecord {
  return { ...storedConversation(i, lines, now), dialog: { flow: 'main', step: 'menu', vars: { orderId: `A${i}` } } };
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

const round = (value: number): number => Math.round(value * 10) / 10;
const mb = (bytes: number): number => round(bytes / 1024 / 1024);

/** Run in a child process so its peak RSS is the start-up's alone. */
async function openOnly(dataDir: string): Promise<void> {
  const started = performance.now();
  const store = await openSqliteStore({ dataDir });
  const openMs = performance.now() - started;
  const counts = await store.countByOwner();
  await store.close();
  process.stdout.write(JSON.stringify({ openMs: round(openMs), maxRssMb: round(process.resourceUsage().maxRSS / 1024), counts }));
}

function openInChild(dataDir: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--open', dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`))));
  });
}

/** Many contacts writing at once for `seconds`: how many disk writes per second does that cost? */
async function sustainedLoad(store: Store, seconds: number): Promise<{ mutations: number; writes: number; writesPerSecond: number }> {
  const writesBefore = store.stats().writes;
  const until = performance.now() + seconds * 1000;
  let mutations = 0;
  const worker = async (w: number): Promise<void> => {
    for (let n = 0; performance.now() < until; n += 1) {
      const id = `load-${w}-${n}`;
      await store.recordInbound({ id, topicId: '2001', key: `whatsapp:${32470000000 + w}`, addedAt: n, payload: { text: 'hi' } });
      await store.markInboundProcessed('2001', id);
      mutations += 2;
    }
  };
  await Promise.all(Array.from({ length: 50 }, (_, w) => worker(w)));
  const writes = store.stats().writes - writesBefore;
  return { mutations, writes, writesPerSecond: round(writes / seconds) };
}

async function main(): Promise<void> {
  const openIndex = process.argv.indexOf('--open');
  if (openIndex >= 0) return openOnly(process.argv[openIndex + 1] ?? '');
  const conversations = argument('conversations', 50_000);
  const lines = argument('lines', 6);
  const dataDir = await mkdtemp(join(tmpdir(), 'store-bench-'));
  try {
    const now = Date.now();
    const store = await openSqliteStore({ dataDir });
    let started = performance.now();
    for (let i = 0; i < conversations; i += 1) await store.saveConversation(record(i, lines, now));
    const saveAllMs = performance.now() - started;
    started = performance.now();
    await store.flush();
    const flushMs = performance.now() - started;
    const hotWriteMs = store.stats().lastWriteMs;
    const databaseBytes = await dirBytes(dataDir);
    const load = await sustainedLoad(store, 3);
    const hotLoadWriteMs = store.stats().lastWriteMs;
    const rssWhileHotMb = mb(process.memoryUsage().rss);
    await store.close();
    const openHot = await openInChild(dataDir);

    const reopened = await openSqliteStore({ dataDir });
    started = performance.now();
    const archived = await reopened.archiveInactive(now + 1);
    const archiveMs = performance.now() - started;
    await reopened.flush();
    const archivedDatabaseBytes = await dirBytes(dataDir);
    started = performance.now();
    const one = await reopened.getConversation(`whatsapp:${32470000000 + 4242}`);
    const archivedLookupMs = performance.now() - started;
    const loadArchived = await sustainedLoad(reopened, 3);
    const archivedLoadWriteMs = reopened.stats().lastWriteMs;
    await reopened.close();
    const openArchived = await openInChild(dataDir);

    process.stdout.write(
      `${JSON.stringify(
        {
          benchmark: 'store',
          node: process.version,
          conversations,
          transcriptLinesEach: lines,
          allHot: {
            saveAllMs: round(saveAllMs),
            flushMs: round(flushMs),
            hotWriteMs,
            databaseMb: mb(databaseBytes),
            sustainedLoad: { ...load, lastWriteMs: hotLoadWriteMs },
            rssWhileOpenMb: rssWhileHotMb,
            startup: openHot,
          },
          allArchived: {
            archived,
            archiveMs: round(archiveMs),
            databaseMb: mb(archivedDatabaseBytes),
            archivedLookupMs: round(archivedLookupMs),
            foundArchived: one?.serviceId === String(32470000000 + 4242),
            sustainedLoad: { ...loadArchived, lastWriteMs: archivedLoadWriteMs },
            startup: openArchived,
          },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
