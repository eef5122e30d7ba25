// Measures forget and retention on a store with many conversations and prints one JSON object.
// Usage: npx tsx bench/retention-bench.ts [--conversations 20000] [--lines 50]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createMemoryStore, openSqliteStore } from '../src/storage/index.js';
import type { Store } from '../src/storage/index.js';
import { storedConversation } from './lib/seed-store.js';

const DAY = 86_400_000;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const round = (value: number): number => Math.round(value * 10) / 10;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: round(performance.now() - started), result };
}

/** One store kind: seeded, then retention with nothing old, a forget (dry run and real), retention with all old. */
export async function measureRetention(kind: 'memory' | 'sqlite', conversations: number, lines: number): Promise<Record<string, unknown>> {
  const t0 = Date.UTC(2026, 10, 1);
  let now = t0;
  const dataDir = await mkdtemp(join(tmpdir(), 'retention-bench-'));
  const options = { clock: () => now };
  const store: Store = kind === 'memory' ? createMemoryStore(options) : await openSqliteStore({ ...options, dataDir });
  try {
    for (let i = 0; i < conversations; i++) {
      const record = storedConversation(i, lines, t0);
      await store.saveConversation(record);
      if (i % 10 === 0) await store.audit({ at: t0, actor: 'customer', action: 'survey answer', subject: record.key, result: '{}' });
    }
    await store.flush();
    const victim = storedConversation(7, lines, t0).key;
    const nothingOld = await timed(() => store.applyRetention());
    const dryRun = await timed(() => store.forgetContact(victim, { dryRun: true }));
    const forget = await timed(() => store.forgetContact(victim));
    now = t0 + 200 * DAY;
    const allOld = await timed(() => store.applyRetention());
    return {
      store: kind,
      conversations,
      lines,
      retentionNothingOldMs: nothingOld.ms,
      forgetDryRunMs: dryRun.ms,
      forgetMs: forget.ms,
      forgotten: forget.result,
      retentionAllOldMs: allOld.ms,
      retentionAllOld: allOld.result,
    };
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const conversations = argument('conversations', 20_000);
  const lines = argument('lines', 50);
  const results = [];
  for (const kind of ['memory', 'sqlite'] as const) results.push(await measureRetention(kind, conversations, lines));
  process.stdout.write(`${JSON.stringify({ retention: results })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
