// `npx tsx bench/poll-read-cost.ts [--customers N] [--repeat R] [--reads K]`: the CPU of reading the mentions list
// again as the poll reads its overlap, per item: the simulator (a process of its own) holds N customer mentions and
// the N echoes of the bot's replies to them; each is read once and recorded (untimed), then the whole window is read
// again K times through every page, each page recorded as the poll records it (`listPages` asking the bridge's memory
// of recorded mentions, then `ingestMentions` of the page with what it found known). The bench process's CPU
// (user + system) per item read, in µs: `list` the reads alone (HTTP, JSON, checks), `poll` with the recording; the
// median over R turns (the machine is shared). Prints one JSON object.
import { createEngageClient, type Mention, RateLimitRegistry } from '../src/engage/index.js';
import { ingestMentions } from '../src/bridge/intake/ingest.js';
import { SeenMentions } from '../src/bridge/intake/seen-mentions.js';
import { createMemoryStore } from '../src/storage/index.js';
import { makeContacts, plainText, sendBurst } from './lib/load-driver.js';
import { reply } from './lib/measure-limit.js';
import { ACCOUNT_ID, SIM_TOKEN, startSimulator } from './lib/processes.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isInteger(v) && v > 0 ? v : fallback;
}
const customers = flag('customers', 1000);
const repeat = flag('repeat', 5);
const reads = flag('reads', 5);

const sim = await startSimulator();
try {
  const targets = await sendBurst(sim.client, makeContacts(Math.ceil(customers / 5), 950_000, 'Read'), 5, plainText);
  const client = createEngageClient({
    baseUrl: sim.url,
    accountId: ACCOUNT_ID,
    accessToken: SIM_TOKEN,
    rateLimit: { registry: new RateLimitRegistry({ burst: 1e9, requestsPerSecond: 1e9 }), concurrency: { read: 8, write: 8, handover: 8 } },
  });
  // The bot's replies: each comes back as an account-written mention (its echo), as in a poll's window.
  let next = 0;
  const replyAll = async (): Promise<void> => {
    while (next < targets.length) if (!(await reply(client, targets[next++]!))) throw new Error('a reply to the simulator failed');
  };
  await Promise.all(Array.from({ length: 8 }, replyAll));
  const store = createMemoryStore();
  const seen = new SeenMentions(store);
  const channelBySource = new Map([['whatsapp', 'whatsapp']]);
  const query = { topicIds: ['2001'], dateFrom: new Date(0), sort: 'dateadd:asc' as const, limit: 100 };
  const isKnown = (topicId: string, id: string) => seen.has(topicId, id);
  const readAll = async (record: boolean): Promise<number> => {
    let items = 0;
    for await (const page of client.mentions.listPages(query, { isKnown, prefetch: true })) {
      items += page.data.length;
      if (record) await ingest(page.data, page.known);
    }
    return items;
  };
  const ingest = (mentions: readonly Mention[], known?: ReadonlySet<Mention>) =>
    ingestMentions(store, mentions, { channelBySource, schedule: () => {}, watch: () => {}, seen, ...(known ? { known } : {}) });
  const first = await readAll(true);
  const run = async (record: boolean): Promise<number> => {
    let items = 0;
    const before = process.cpuUsage();
    for (let k = 0; k < reads; k++) items += await readAll(record);
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / items;
  };
  await run(true); // untimed: JIT, connections
  const samples: Record<'list' | 'poll', number[]> = { list: [], poll: [] };
  for (let r = 0; r < repeat; r++) {
    samples.list.push(await run(false));
    samples.poll.push(await run(true));
  }
  await client.close();
  await store.close();
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round((s[Math.floor(s.length / 2)] ?? 0) * 100) / 100;
  };
  const round = (xs: number[]) => xs.map((x) => Math.round(x * 100) / 100);
  process.stdout.write(
    `${JSON.stringify({ items: first, reads, repeat, cpu_us_per_item: { list: median(samples.list), poll: median(samples.poll) }, samples: { list: round(samples.list), poll: round(samples.poll) } }, null, 2)}\n`,
  );
} finally {
  await sim.child.stop('SIGTERM');
}
