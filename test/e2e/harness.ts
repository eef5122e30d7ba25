import { testTempDir } from '../support/temp-dir.js';
import type { Logger } from 'pino';
import { type Config, parseConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { start, type RunningBridge } from '../../src/main.js';
import {
  createSimulator,
  type SimulatorHandle,
  type RunningSimulator,
  type OutboundEntry,
  type RequestEntry,
  type Realism,
} from '../../src/simulator/index.js';

export const REPO = new URL('../../', import.meta.url).pathname;
/** Wednesday 2026-11-18 10:00 Europe/Brussels (09:00 UTC): inside the seed's business hours. */
export const OPEN_MS = Date.UTC(2026, 10, 18, 9, 0, 0);
/** Saturday 2026-11-21 10:00 Brussels: closed. */
export const CLOSED_MS = Date.UTC(2026, 10, 21, 9, 0, 0);

export interface Harness {
  readonly sim: SimulatorHandle['sim'];
  readonly simUrl: string;
  /** The bridge running now (`restart` replaces it). */
  readonly running: RunningBridge;
  readonly dataDir: string;
  now(): number;
  /** Sets the bridge's clock to `ms` and the service's to it plus the service offset. */
  setNow(ms: number): void;
  /** The service's clock runs this many seconds ahead of the bridge's (negative: behind) for what customers write next. */
  setServiceOffset(seconds: number): void;
  advance(ms: number): void;
  /** A customer writes; returns the mention id. */
  say(id: string, text: string, channel?: string, name?: string): Promise<string>;
  click(id: string, button: string, channel?: string): Promise<string>;
  control(path: string, body?: unknown): Promise<unknown>;
  outbound(): OutboundEntry[];
  requests(): RequestEntry[];
  /** One poll, then wait until every contact's work is done. */
  settle(): Promise<void>;
  /** Stops the bridge, runs `meanwhile` (the outage), and starts a new bridge on the same data and service. */
  restart(meanwhile?: () => Promise<void>): Promise<RunningBridge>;
  stop(): Promise<void>;
}

export { waitFor } from '../support/wait-for.js';

export async function startHarness(
  options: {
    env?: Record<string, string>;
    nowMs?: number;
    dataDir?: string;
    /** Customers who wrote before the bridge ever started (history), `secondsAgo` on the service's clock. */
    history?: ReadonlyArray<{ id: string; text: string; secondsAgo: number }>;
    /** Realism switches the simulated service starts with (and returns to on `/_sim/reset`). */
    realism?: Partial<Realism>;
    /** The bridge's logger, made from its settings (default: silent). */
    logger?: (config: Config) => Logger;
    /**
     * The bridge's clock stands still: only `setNow` and `advance` move it. For a case that must hold whatever the
     * machine's speed ("the same second", "within 30 s"), when the bridge's own retries in it need no running clock.
     */
    frozenClock?: boolean;
  } = {},
): Promise<Harness> {
  // The bridge's clock runs at real speed from a chosen moment, so retries fall due; tests jump it forward. A
  // frozen clock reads the real one not at all: it moves only when the test moves it.
  const realNow = options.frozenClock ? () => 0 : Date.now;
  let offsetMs = (options.nowMs ?? OPEN_MS) - realNow();
  const clock = () => realNow() + offsetMs;
  const handle = createSimulator(options.realism ? { realism: options.realism } : {});
  const sim = handle.sim;
  sim.setClock(Math.floor(clock() / 1000));
  const server: RunningSimulator = await handle.listen({ host: '127.0.0.1', port: 0 });
  for (const m of options.history ?? []) {
    sim.setClock(Math.floor(clock() / 1000) - m.secondsAgo);
    await fetch(`${server.url}/_sim/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'whatsapp', author: { id: m.id, name: 'Ann' }, text: m.text }),
    });
  }
  sim.setClock(Math.floor(clock() / 1000));
  // A data directory the harness made is removed when the test finishes (a test may read it after stop()).
  const dataDir = options.dataDir ?? testTempDir('eb-e2e-');
  const config = parseConfig({
    env: {
      ENGAGE_BASE_URL: server.url,
      ENGAGE_ACCESS_TOKEN: 'sim-token',
      ENGAGE_ACCOUNT_ID: '1001',
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_HTTP_HOST: '127.0.0.1',
      BRIDGE_HTTP_PORT: '0',
      LOG_LEVEL: 'error',
      BRIDGE_OWNER_CONFIRM_AGE_MS: '30000',
      ...options.env,
    },
  });
  const log = options.logger?.(config) ?? silentLogger();
  let running = await start(config, { log, cwd: REPO, now: clock, loops: false });
  // The simulator's clock is fixed (setClock) while the bridge's runs on: a customer writes at the bridge's now
  // (plus the offset a test gives the service's clock). Otherwise, when starting took over a second (a busy
  // machine), the first mentions would be dated well before the bridge's first read.
  let serviceOffsetSeconds = 0;
  const syncSimClock = (): void => sim.setClock(Math.floor(clock() / 1000) + serviceOffsetSeconds);
  const h: Harness = {
    sim,
    simUrl: server.url,
    get running() {
      return running;
    },
    dataDir,
    now: clock,
    setNow(ms) {
      offsetMs = ms - realNow();
      syncSimClock(); // with the service's offset: a test's `setServiceOffset` holds until it changes it
    },
    setServiceOffset(seconds) {
      serviceOffsetSeconds = seconds;
      syncSimClock();
    },
    advance(ms) {
      h.setNow(clock() + ms);
    },
    async say(id, text, channel = 'whatsapp', name = 'Ann') {
      syncSimClock();
      const m = (await h.control('/_sim/inbound', { channel, author: { id, name }, text })) as { id: string };
      return m.id;
    },
    async click(id, button, channel = 'whatsapp') {
      syncSimClock();
      const m = (await h.control('/_sim/inbound', { channel, author: { id, name: 'Ann' }, clicked_button: button })) as { id: string };
      return m.id;
    },
    async control(path, body) {
      const res = await fetch(`${server.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    outbound: () => sim.outbound.after(0),
    requests: () => sim.requests.after(0),
    async restart(meanwhile) {
      await running.stop();
      await meanwhile?.();
      running = await start(config, { log, cwd: REPO, now: clock, loops: false });
      return running;
    },
    async settle() {
      await running.bridge.poller.tick();
      await running.bridge.idle();
    },
    async stop() {
      await running.stop();
      await server.close();
    },
  };
  return h;
}

/** Bot messages published to one customer, in order. */
export function botMessagesTo(h: Harness, serviceId: string): OutboundEntry[] {
  return h.outbound().filter((o) => o.author === 'bot' && o.recipient?.service_id === serviceId);
}

export function callsOf(h: Harness, method: string, pathPart: string): RequestEntry[] {
  return h.requests().filter((r) => r.method === method && r.path.includes(pathPart));
}
