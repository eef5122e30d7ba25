import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { askCommandSocket } from '../../src/http/ask-command-socket.js';
import { silentLogger } from '../../src/log.js';
import { start, type RunningBridge } from '../../src/main.js';
import { createSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { startTestPostgres, type TestPostgres } from '../storage/postgres-server.js';
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

function startInstance(simUrl: string, databaseUrl: string, env: Record<string, string> = {}): Instance {
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
    log: silentLogger(),
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

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('two instances on one PostgreSQL database', () => {
  let server: TestPostgres;
  let simulator: RunningSimulator;
  beforeAll(async () => {
    server = await startTestPostgres();
    simulator = await createSimulator().listen({ host: '127.0.0.1', port: 0 });
  }, 120_000);
  afterAll(async () => {
    await simulator?.close();
    await server?.stop();
  }, 60_000);

  it('has the standby answer health, say standby in readiness and status, and take over on the same HTTP server', async () => {
    const databaseUrl = await server.createDatabase();
    const a = startInstance(simulator.url, databaseUrl);
    const active = await a.running;
    const b = startInstance(simulator.url, databaseUrl);
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
});
