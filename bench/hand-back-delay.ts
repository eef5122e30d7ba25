// Measures the delay between a hand-back in the service's tool and the bot's answer to the customer's next message,
// with the real clocks and the poll loop running (the #10.3 figure). Prints one JSON object.
// Usage: npx tsx bench/hand-back-delay.ts [--runs N]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../src/config.js';
import { silentLogger } from '../src/log.js';
import { start } from '../src/main.js';
import { createSimulator } from '../src/simulator/index.js';
import { percentile } from './lib/percentiles.js';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 10;

async function until<T>(what: string, check: () => T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function main(): Promise<void> {
  const sim = createSimulator();
  const server = await sim.listen({ host: '127.0.0.1', port: 0 });
  const dataDir = await mkdtemp(join(tmpdir(), 'eb-handback-'));
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<{ id?: string }>,
    );
  const config = parseConfig({
    env: {
      ENGAGE_BASE_URL: server.url,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_HTTP_HOST: '127.0.0.1',
      BRIDGE_HTTP_PORT: '0',
      LOG_LEVEL: 'error',
    },
  });
  const running = await start(config, { log: silentLogger(), cwd: process.cwd() });
  const delays: number[] = [];
  try {
    const repliesTo = (id: string) => sim.sim.outbound.after(0).filter((e) => e.author === 'bot' && e.recipient?.service_id === id);
    for (let i = 0; i < RUNS; i++) {
      const id = `3247900${String(i).padStart(4, '0')}`;
      await post('/_sim/inbound', { channel: 'whatsapp', author: { id, name: 'Ann' }, text: 'hello' });
      await until('the greeting', () => repliesTo(id).length > 0);
      await post('/_sim/agent/reply', { channel: 'whatsapp', service_id: id, text: 'Alice here.' });
      // People talk a while.
      await new Promise((r) => setTimeout(r, 6_000));
      const said = repliesTo(id).length;
      await post('/_sim/handover', { channel: 'whatsapp', service_id: id, owner: 'application' });
      const handedBackAt = Date.now();
      await post('/_sim/inbound', { channel: 'whatsapp', author: { id, name: 'Ann' }, text: 'one more question' });
      await until('the answer after the hand-back', () => repliesTo(id).length > said);
      delays.push(Date.now() - handedBackAt);
    }
  } finally {
    await running.stop();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  delays.sort((a, b) => a - b);
  const report = { runs: delays.length, delay_ms: { median: percentile(delays, 50), max: delays[delays.length - 1] } };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
