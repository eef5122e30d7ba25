// `npx tsx bench/client-call-cost.ts [--calls N] [--repeat R] [--concurrency C]`: the CPU of one API call made by
// our Engage client (`createEngageClient`) against the same call made with undici alone, against the simulator in a
// process of its own. Each kind runs `calls` calls, `concurrency` at a time, `repeat` times in turns (the machine is
// shared: a kind's median over its turns is the figure); the bench process's CPU (user + system) per call, in ms.
// Kinds: `bare_add` (undici `request`, the form body built per call, the answer read as text and JSON.parse'd),
// `client_add` (`publisher.add`, the bench's reply), `bare_handover` / `client_handover` (GET handover, the owner
// check), `client_contact` (GET contact by service, the facts) and `client_claim` (DELETE handover); `--only a,b` runs those alone. The client has no
// pacing here (a bucket nothing waits on): what is measured is the call's own work. Prints one JSON object.
import { request } from 'undici';
import { createEngageClient, RateLimitRegistry } from '../src/engage/index.js';
import { makeContacts, plainText, sendBurst } from './lib/load-driver.js';
import { ACCOUNT_ID, SIM_TOKEN, startSimulator } from './lib/processes.js';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isInteger(v) && v > 0 ? v : fallback;
}
const calls = flag('calls', 1000);
const repeat = flag('repeat', 5);
const concurrency = flag('concurrency', 8);
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : undefined;

const sim = await startSimulator();
try {
  // Customers to reply to: `calls` mentions over calls / 5 contacts.
  const targets = await sendBurst(sim.client, makeContacts(Math.ceil(calls / 5), 900_000, 'Cost'), 5, plainText);
  const contacts = [...new Set(targets.map((t) => t.contact))];
  const client = createEngageClient({
    baseUrl: sim.url,
    accountId: ACCOUNT_ID,
    accessToken: SIM_TOKEN,
    rateLimit: {
      registry: new RateLimitRegistry({ burst: 1e9, requestsPerSecond: 1e9 }),
      concurrency: { read: concurrency, write: concurrency, handover: concurrency },
    },
  });
  const version = '20210601';
  const base = `${sim.url}/${ACCOUNT_ID}`;
  const headers = { authorization: `Bearer ${SIM_TOKEN}`, accept: 'application/json', 'user-agent': 'engage-bridge' };
  const bareJson = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: string): Promise<unknown> => {
    const res = await request(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const json = JSON.parse(await res.body.text()) as { response?: unknown };
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    return json.response;
  };
  const services = [{ type: 'whatsapp', service_id: '3225550100' }];
  const kinds: Record<string, (i: number) => Promise<unknown>> = {
    bare_add: (i) => {
      const t = targets[i % targets.length]!;
      const body = new URLSearchParams({
        type: 'reply',
        services: JSON.stringify(services),
        message: 'Thanks, noted.',
        status: '',
        topic_id: '2001',
        mention_id: t.mentionId,
        version,
      }).toString();
      return bareJson('POST', `${base}/publisher/add`, body);
    },
    client_add: (i) =>
      client.publisher.add({
        type: 'reply',
        services,
        message: 'Thanks, noted.',
        status: '',
        topicId: '2001',
        mentionId: targets[i % targets.length]!.mentionId,
      }),
    bare_handover: (i) => bareJson('GET', `${base}/inbox/handover/whatsapp/${contacts[i % contacts.length]}?version=${version}`),
    client_handover: (i) => client.handover.get({ service: 'whatsapp', serviceId: contacts[i % contacts.length]! }),
    client_contact: (i) => client.contacts.get({ service: 'whatsapp', serviceId: contacts[i % contacts.length]! }, { topicIds: ['2001'] }),
    client_claim: (i) => client.handover.toApplication({ service: 'whatsapp', serviceId: contacts[i % contacts.length]! }),
  };
  for (const name of Object.keys(kinds)) if (only && !only.includes(name)) delete kinds[name];
  const run = async (call: (i: number) => Promise<unknown>): Promise<number> => {
    let next = 0;
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < calls) await call(next++);
      }),
    );
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / 1000 / calls;
  };
  // One untimed pass of each first (JIT, connections).
  for (const call of Object.values(kinds)) await run(call);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
  for (let r = 0; r < repeat; r++) {
    for (const [name, call] of Object.entries(kinds)) samples[name]?.push(await run(call));
  }
  await client.close();
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round((s[Math.floor(s.length / 2)] ?? 0) * 1000) / 1000;
  };
  const cpuMsPerCall = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
  const spread = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, xs.map((x) => Math.round(x * 1000) / 1000)]));
  process.stdout.write(`${JSON.stringify({ calls, repeat, concurrency, cpu_ms_per_call: cpuMsPerCall, samples: spread }, null, 2)}\n`);
} finally {
  await sim.child.stop('SIGTERM');
}
