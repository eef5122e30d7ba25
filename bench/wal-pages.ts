// Which pages the SQLite store's commits write, by table and index: the load of `store-message-cost.ts` (one customer
// message and the echo of the reply, per contact) on a fresh database, the WAL kept whole (no checkpoint during the
// load), then read frame by frame and each page named by its owner today (`dbstat`). Prints one JSON object: commits
// and WAL frames per message, and frames per message by table or index and page type (leaf, interior, overflow).
// Usage: npx tsx bench/wal-pages.ts [--contacts 200] [--rounds 5] [--window MS] [--rate PER_S] [--api-ms MS] [--poll MS]
// (the options of store-message-cost.ts)
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../src/storage/sql-store/sql-driver.js';
import { openSqlStore } from '../src/storage/sql-store/open-sql-store.js';
import { openDatabase } from '../src/storage/sqlite/open-sqlite-store.js';
import { resolveStoreOptions } from '../src/storage/store-options.js';
import { driveLoad, seedContacts } from './lib/store-message.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

const contacts = option('contacts', 200);
const rounds = option('rounds', 5);
const rate = option('rate', 0);
const apiMs = option('api-ms', 0);
const pollMs = option('poll', 0);
const commitWindow = option('window', 0);

const dir = await mkdtemp(join(tmpdir(), 'wal-pages-'));
try {
  const file = join(dir, 'bridge.db');
  const db = await openDatabase(file);
  db.exec('PRAGMA wal_autocheckpoint = 0');
  const store = await openSqlStore(sqliteDriver(db), resolveStoreOptions({ writeIntervalMs: commitWindow }, 0), 'wal-pages');
  const keys = await seedContacts(store, contacts);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const decided = await driveLoad(store, keys, rounds, { rate, apiMs, pollMs });
  const wal = await readFile(`${file}-wal`);
  const owners = new Map<number, string>();
  for (const row of db.prepare('SELECT name, pageno, pagetype FROM dbstat').all() as Array<{
    name: string;
    pageno: number;
    pagetype: string;
  }>)
    owners.set(row.pageno, `${row.name} ${row.pagetype}`);
  await store.close();

  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const byOwner = new Map<string, number>();
  let frames = 0;
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    frames += 1;
    const owner = owners.get(wal.readUInt32BE(at)) ?? 'free or gone';
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  const messages = contacts * rounds;
  const perMessage = (n: number) => Math.round((n / messages) * 100) / 100;
  const sorted = [...decided].sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      contacts,
      rounds,
      rate,
      apiMs,
      pollMs,
      windowMs: commitWindow,
      pageSize,
      commitsPerMessage: perMessage(commits),
      framesPerMessage: perMessage(frames),
      walBytesPerMessage: Math.round((frames * (pageSize + 24)) / messages),
      decidedMsP99: Math.round(sorted[Math.ceil(0.99 * sorted.length) - 1] ?? Number.NaN),
      framesPerMessageByOwner: Object.fromEntries([...byOwner].sort((a, b) => b[1] - a[1]).map(([owner, n]) => [owner, perMessage(n)])),
    })}\n`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
