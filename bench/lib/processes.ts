import { bridgeNodeArgs, cleanEnv, spawnCli, type ChildHandle } from './child-process.js';
import { SimClient } from './sim-client.js';

export const SIM_TOKEN = 'sim-token';
export const ACCOUNT_ID = '1001';
const START_TIMEOUT_MS = 30_000;

export interface RunningSim {
  readonly url: string;
  readonly client: SimClient;
  readonly child: ChildHandle;
}

/** `engage-bridge simulator --port 0` as its own process; resolves once it printed its address. */
export async function startSimulator(options: { seedFile?: string } = {}): Promise<RunningSim> {
  const args = ['simulator', '--port', '0', '--host', '127.0.0.1', ...(options.seedFile ? ['--seed', options.seedFile] : [])];
  const child = spawnCli(args, cleanEnv({}));
  try {
    const m = await child.waitForLine(/listening on (http:\/\/127\.0\.0\.1:\d+)/, START_TIMEOUT_MS);
    const url = m[1]!;
    return { url, client: new SimClient(url), child };
  } catch (err) {
    await child.stop('SIGKILL');
    throw err;
  }
}

export interface BridgeSettings {
  readonly dataDir: string;
  readonly pollIntervalMs: number;
  readonly webhookSecret?: string;
  readonly token?: string;
  readonly rateLimitPerHour?: number;
  readonly requestTimeoutMs?: number;
  readonly ownerConfirmAgeMs?: number;
  /** Any further settings, by their variable names. */
  readonly extra?: Record<string, string>;
  /**
   * `ready` (default): start-up ends when /readyz answers 200. `health`: when /healthz does — under injected
   * faults the first successful poll (which readiness waits for) may take a while, and the campaign need not wait.
   */
  readonly waitFor?: 'ready' | 'health';
}

export interface RunningBridge {
  readonly url: string;
  readonly child: ChildHandle;
  readonly startupMs: number;
}

/** The bridge's environment for a simulator at `simUrl`: every setting the bench relies on, explicitly. */
export function bridgeEnv(simUrl: string, s: BridgeSettings): NodeJS.ProcessEnv {
  return cleanEnv({
    ENGAGE_BASE_URL: simUrl,
    ENGAGE_ACCESS_TOKEN: s.token ?? SIM_TOKEN,
    ENGAGE_ACCOUNT_ID: ACCOUNT_ID,
    ENGAGE_CHANNELS: 'web,whatsapp,viber,twilio',
    BRIDGE_DATA_DIR: s.dataDir,
    BRIDGE_HTTP_PORT: '0',
    BRIDGE_HTTP_HOST: '127.0.0.1',
    BRIDGE_POLL_INTERVAL_MS: String(s.pollIntervalMs),
    ENGAGE_RATE_LIMIT_PER_HOUR: String(s.rateLimitPerHour ?? 0),
    ...(s.webhookSecret ? { BRIDGE_WEBHOOK_SECRET: s.webhookSecret } : {}),
    ...(s.requestTimeoutMs ? { ENGAGE_REQUEST_TIMEOUT_MS: String(s.requestTimeoutMs) } : {}),
    ...(s.ownerConfirmAgeMs !== undefined ? { BRIDGE_OWNER_CONFIRM_AGE_MS: String(s.ownerConfirmAgeMs) } : {}),
    LOG_LEVEL: 'info',
    // The store's commit window to measure (`BENCH_COMMIT_WINDOW_MS`); unset, the store's default.
    ...(process.env.BENCH_COMMIT_WINDOW_MS ? { BRIDGE_COMMIT_WINDOW_MS: process.env.BENCH_COMMIT_WINDOW_MS } : {}),
    ...s.extra,
  });
}

/**
 * `engage-bridge start` against the simulator, as its own process. `startupMs` runs from spawn to the moment
 * `/readyz` (or `/healthz`, see `waitFor`) first answers 200: with `ready`, store loaded and first poll made.
 */
export async function startBridge(simUrl: string, s: BridgeSettings): Promise<RunningBridge> {
  const started = performance.now();
  const child = spawnCli(['start'], bridgeEnv(simUrl, s), bridgeNodeArgs());
  try {
    // An active bridge prints `health, metrics…: URL`; a PostgreSQL standby `… Health: URL` while it waits.
    const m = await child.waitForLine(/(?:health, metrics[^:]*|Health): (http:\/\/[^\s]+)/, START_TIMEOUT_MS);
    const url = m[1]!;
    await waitOk(`${url}${s.waitFor === 'health' ? '/healthz' : '/readyz'}`, child, START_TIMEOUT_MS);
    return { url, child, startupMs: Math.round(performance.now() - started) };
  } catch (err) {
    await child.stop('SIGKILL');
    throw err;
  }
}

async function waitOk(url: string, child: ChildHandle, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${child.lines.slice(-20).join('\n')}`);
}
