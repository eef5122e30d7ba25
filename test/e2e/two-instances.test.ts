import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { askCommandSocket } from '../../src/http/ask-command-socket.js';
import { silentLogger } from '../../src/log.js';
import { start, type RunningBridge } from '../../src/main.js';
import { createSimulator, type RunningSimulator, type SimulatorHandle } from '../../src/simulator/index.js';
import { startTestPostgres, type TestPostgres } from '../storage/postgres-server.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { testTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { REPO } from './harness.js';

interface Instance {
  /** Resolves once the instance is active. */
  readonly running: Promise<RunningBridge>;
  /** Resolves with the health address once it waits as a standby. */
  readonly standby: Promise<string>;
  readonly dataDir: string;
  /** Ends the instance, whichever role it is in. */
  stop(): Promise<void>;
}

function startInstance(simUrl: string, databaseUrl: string, env: Record<string, string> = {}, log = silentLogger()): Instance {
  const dataDir = testTempDir('eb-two-');
  const config = parseConfig({
    env: {
      ENGAGE_BASE_URL: simUrl,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_HTTP_HOST: '127.0.0.1',
      BRIDGE_HTTP_PORT: '0',
      BRIDGE_DATABASE_URL: databaseUrl,
      BRIDGE_LEASE_TTL_MS: '2000',
      BRIDGE_POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'error',
      ...env,
    },
  });
  const stopWaiting = new AbortController();
  let toStandby: (url: string) => void = () => {};
  const standby = new Promise<string>((resolve) => {
    toStandby = resolve;
  });
  const running = start(config, {
    log,
    cwd: REPO,
    stopSignal: stopWaiting.signal,
    onStandby: ({ httpUrl }) => toStandby(httpUrl),
  });
  // A standby told to stop rejects (it never became active): that is the expected end, not a failure.
  running.catch(() => {});
  return {
    running,
    standby,
    dataDir,
    async stop() {
      stopWaiting.abort();
      const r = await running.catch(() => undefined);
      await r?.stop();
    },
  };
}

/** One sample of `/metrics`, or undefined when the metric is not there. */
async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** The sum of a counter over its labels. */
async function total(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('two instances on one PostgreSQL database', () => {
  let server: TestPostgres;
  // Each test has its own simulator: instances of a test that ran out of time (its `finally` still pending) keep
  // polling their simulator, and would answer the next test's customers in a shared one.
  let simulator: RunningSimulator;
  let sim: SimulatorHandle['sim'];
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 120_000);
  beforeEach(async () => {
    const handle = createSimulator();
    sim = handle.sim;
    simulator = await handle.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await simulator?.close();
  });
  afterAll(async () => {
    await server?.stop();
  }, 60_000);

  it('has the standby answer health, say standby in readiness and status, and take over on the same HTTP server', async () => {
    const databaseUrl = await server.createDatabase();
    // Both instances run in this test's process: beside the rest of the suite on two cores its event loop can stall
    // past a 2 s lease, and the active one then rightly steps down before its status is asked. A longer lease keeps
    // the roles still while they are looked at; the stop below releases the lease, so the takeover does not wait for it.
    const lease = { BRIDGE_LEASE_TTL_MS: '10000' };
    const a = startInstance(simulator.url, databaseUrl, lease);
    const active = await a.running;
    const b = startInstance(simulator.url, databaseUrl, lease);
    try {
      const standbyUrl = await b.standby;

      expect((await getJson(`${standbyUrl}/healthz`)).status).toBe(200);
      const readiness = await getJson(`${standbyUrl}/readyz`);
      expect(readiness.status).toBe(503);
      expect(readiness.body).toMatchObject({ status: 'not ready', code: 'standby' });
      expect(String(readiness.body.reason)).toContain('standby');
      const standbyStatus = await askCommandSocket(`${b.dataDir}/bridge.sock`, 'status');
      expect(standbyStatus?.output).toContain('Role: standby');
      const refused = await askCommandSocket(`${b.dataDir}/bridge.sock`, 'pause all');
      expect(refused).toMatchObject({ exitCode: 1 });
      expect(refused?.output).toContain('standby');
      const activeStatus = await askCommandSocket(active.commandSocketPath, 'status');
      expect(activeStatus?.output).toContain('Role: active');

      await a.stop();
      const successor = await b.running;
      expect(successor.http.url).toBe(standbyUrl);
      expect(successor.role).toBe('active');
      await waitFor('the successor ready on the same HTTP server', async () => (await getJson(`${standbyUrl}/readyz`)).status === 200);
      const status = await askCommandSocket(`${b.dataDir}/bridge.sock`, 'status');
      expect(status?.output).toContain('Role: active');
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('has a standby train the NLU while it waits, so the training never stalls an instance that holds the lease', async () => {
    const databaseUrl = await server.createDatabase();
    const lease = { BRIDGE_LEASE_TTL_MS: '10000' };
    const a = startInstance(simulator.url, databaseUrl, lease);
    await a.running;
    const lines: string[] = [];
    const b = startInstance(simulator.url, databaseUrl, lease, pino({ level: 'info' }, { write: (line: string) => lines.push(line) }));
    try {
      await b.standby;
      // Before: trained only once active (in its start), so a standby had not trained yet.
      expect(lines.some((line) => line.includes('the embedded NLU is trained from the flows'))).toBe(true);
      expect(lines.some((line) => line.includes('active: this instance holds the store'))).toBe(false);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('shows the role, the lease renewals and the takeovers in /metrics', async () => {
    const databaseUrl = await server.createDatabase();
    const a = startInstance(simulator.url, databaseUrl);
    const active = await a.running;
    const b = startInstance(simulator.url, databaseUrl);
    try {
      const standbyUrl = await b.standby;
      expect(await metric(active.http.url, 'engage_bridge_active')).toBe(1);
      expect(await metric(standbyUrl, 'engage_bridge_active')).toBe(0);
      expect(await metric(standbyUrl, 'engage_bridge_lease_takeovers_total')).toBe(0);
      // Renewed every third of the 2 s lease.
      await waitFor(
        'a lease renewal counted',
        async () => ((await metric(active.http.url, 'engage_bridge_lease_renewals_total')) ?? 0) >= 1,
      );
      expect(await metric(active.http.url, 'engage_bridge_lease_takeovers_total')).toBe(0);

      await a.stop();
      await b.running;
      expect(await metric(standbyUrl, 'engage_bridge_active')).toBe(1);
      expect(await metric(standbyUrl, 'engage_bridge_lease_takeovers_total')).toBe(1);
      await waitFor('the successor renewing', async () => ((await metric(standbyUrl, 'engage_bridge_lease_renewals_total')) ?? 0) >= 1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('has the active instance step down when the database stops answering, and the standby take over with no double reply', async () => {
    const databaseUrl = await server.createDatabase();
    const proxy = await startTcpProxy(Number(new URL(databaseUrl).port));
    const viaProxy = new URL(databaseUrl);
    viaProxy.port = String(proxy.port);
    const a = startInstance(simulator.url, viaProxy.toString());
    const cutOff = await a.running;
    const b = startInstance(simulator.url, databaseUrl);
    const customer = async (id: string): Promise<string> => {
      const res = await fetch(`${simulator.url}/_sim/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'whatsapp', author: { id, name: 'Ann' }, text: 'hello' }),
      });
      return ((await res.json()) as { id: string }).id;
    };
    const repliesTo = (mentionId: string) => sim.outbound.after(0).filter((o) => o.author === 'bot' && o.mention_id === mentionId);
    try {
      await b.standby;
      const first = await customer('net-cut-1');
      await waitFor('the active instance answering', () => repliesTo(first).length > 0);

      proxy.cut();
      // Written while nobody may act: answered once, by the successor.
      const during = await customer('net-cut-2');
      const successor = await b.running;
      await waitFor('the cut-off instance stepping down', () => cutOff.role === 'standby');
      await waitFor('the successor answering the customer who wrote during the cut', () => repliesTo(during).length > 0, 20_000);
      const after = await customer('net-cut-3');
      await waitFor('the successor answering', () => repliesTo(after).length > 0);
      const callsOfDeposed = await total(cutOff.http.url, 'engage_bridge_api_calls_total');
      const last = await customer('net-cut-4');
      await waitFor('the successor answering again', () => repliesTo(last).length > 0);
      await successor.bridge.idle();
      // Stepped down: no Engage call since, and it says standby on the same HTTP server.
      expect(await total(cutOff.http.url, 'engage_bridge_api_calls_total')).toBe(callsOfDeposed);
      expect((await getJson(`${cutOff.http.url}/healthz`)).status).toBe(200);
      expect((await getJson(`${cutOff.http.url}/readyz`)).body).toMatchObject({ code: 'standby' });
      expect(await metric(cutOff.http.url, 'engage_bridge_active')).toBe(0);

      // No message published twice for the same mention.
      const published = sim.outbound.after(0).filter((o) => o.author === 'bot');
      const keys = published.map((o) => `${o.mention_id}\n${o.message}`);
      expect(new Set(keys).size).toBe(keys.length);

      // The network comes back: the deposed instance waits as a standby again.
      proxy.heal();
      await a.stop();
    } finally {
      await a.stop();
      await b.stop();
      await proxy.close();
    }
  }, 60_000);
});
