import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeed } from '../../src/simulator/index.js';
import { startTestPostgres, type TestPostgres } from '../../test/storage/postgres-server.js';
import { BridgeKeeper } from './bridge-keeper.js';
import { FailoverPair } from './failover-pair.js';
import { percentile } from './percentiles.js';
import type { DriverEvent } from './chaos-events.js';
import { driveContact } from './chaos-driver.js';
import { judgeCampaign, type Verdict } from './chaos-verdict.js';
import { makeContacts } from './load-driver.js';
import { LogTail } from './log-tail.js';
import { writeOpenHoursSeed } from './open-hours-seed.js';
import { startSimulator, type RunningSim } from './processes.js';
import { seededRandom } from './prng.js';
import type { Faults } from './sim-client.js';

export interface ChaosOptions {
  readonly contacts: number;
  readonly messagesPerContact: number;
  /** kill -9 and restart of the bridge, spread evenly over the messages sent. */
  readonly kills: number;
  readonly faults: Faults;
  readonly seed: number;
  readonly pollIntervalMs: number;
  /** Also push mentions by webhook (the poll stays on as the safety net). */
  readonly webhook: boolean;
  /** Simulator realism options for the whole campaign (`/_sim/realism`), e.g. a service clock behind ours. */
  readonly realism?: Record<string, unknown>;
  readonly thinkMs: readonly [number, number];
  /** `BRIDGE_OWNER_CONFIRM_AGE_MS` of the bridge under test. */
  readonly ownerConfirmAgeMs: number;
  /** After the drive: give up waiting when nothing changed for this long (faults off). */
  readonly settleMs: number;
  /** After the drive, faults stay on this long at most while the bridge catches up. */
  readonly faultySettleMs: number;
  readonly log?: (line: string) => void;
  /** Write the raw material (driver events, both simulator logs, the bridge's output, its data directory) here, for a post-mortem. */
  readonly dumpDir?: string;
  /** `LOG_LEVEL` of the bridge (default info). */
  readonly bridgeLogLevel?: 'debug' | 'info';
  /**
   * Two bridges on one embedded PostgreSQL instead of one on a data directory: each kill -9 hits the active one,
   * the standby takes over (timed) and the killed one comes back as the new standby.
   */
  readonly failover?: { readonly leaseTtlMs: number };
}

export interface ChaosReport extends Omit<Verdict, 'details' | 'messages'> {
  readonly messages: number;
  readonly contacts: number;
  readonly kills: number;
  readonly faults: Record<string, unknown>;
  readonly secrets_in_logs: number;
  readonly details: Verdict['details'] & {
    readonly settle_ms: number;
    readonly bridge_log_lines: number;
    /** Per kill: ms until the next incarnation answered its health check. */
    readonly down_ms?: readonly number[];
    /** ms during which a rate-limit refusal held every call (see `rateLimitedMs`). */
    readonly rate_limited_ms: number;
  };
  /** With `failover`: from each kill -9 of the active instance to the standby saying it is active. */
  readonly failover?: {
    readonly lease_ttl_ms: number;
    readonly takeovers: number;
    readonly takeover_ms: { readonly median: number | null; readonly max: number | null; readonly all: readonly number[] };
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs the whole campaign: its own simulator, a bridge killed and restarted on one data directory, then the verdict. */
export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const dir = await mkdtemp(join(tmpdir(), 'engage-chaos-'));
  const token = `chaos-${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec-${randomBytes(16).toString('hex')}`;
  let sim: RunningSim | undefined;
  let keeper: BridgeKeeper | FailoverPair | undefined;
  let postgres: TestPostgres | undefined;
  const log = o.log ?? (() => undefined);
  try {
    sim = await startSimulator({ seedFile: await writeOpenHoursSeed(dir) });
    await sim.client.addToken(token, 'u1', [...(defaultSeed.tokens[0]?.scopes ?? [])]);
    let databaseUrl: string | undefined;
    if (o.failover) {
      postgres = await startTestPostgres();
      databaseUrl = await postgres.createDatabase();
    }
    const bridgeSettings = {
      dataDir: join(dir, 'data'),
      pollIntervalMs: o.pollIntervalMs,
      token,
      requestTimeoutMs: 2000,
      ownerConfirmAgeMs: o.ownerConfirmAgeMs,
      waitFor: 'health',
      extra: {
        LOG_LEVEL: o.bridgeLogLevel ?? 'info',
        ...(databaseUrl && o.failover ? { BRIDGE_DATABASE_URL: databaseUrl, BRIDGE_LEASE_TTL_MS: String(o.failover.leaseTtlMs) } : {}),
      },
      ...(o.webhook ? { webhookSecret } : {}),
    } as const;
    keeper = o.failover ? new FailoverPair(sim.url, bridgeSettings, dir) : new BridgeKeeper(sim.url, bridgeSettings);
    const activeUrl = async (): Promise<string | undefined> => (keeper instanceof FailoverPair ? keeper.activeUrl() : keeper?.running?.url);
    const setWebhook = async () => {
      const url = await activeUrl();
      if (o.webhook && url) await sim!.client.webhook(`${url}/webhooks/engage/${webhookSecret}`);
    };
    await keeper.start();
    await setWebhook();
    const requests = LogTail.requests(sim.client, 100);
    const outbound = LogTail.outbound(sim.client, 500);
    requests.start();
    outbound.start();
    await sim.client.faults({ ...o.faults, seed: o.seed });
    if (o.realism) await sim.client.realism(o.realism);

    const total = o.contacts * o.messagesPerContact;
    const killAt = Array.from({ length: o.kills }, (_, i) => Math.floor(((i + 1) * total) / (o.kills + 1)));
    let sent = 0;
    let restarting: Promise<void> = Promise.resolve();
    const onMessage = async () => {
      sent++;
      const at = killAt.indexOf(sent);
      if (at < 0) return;
      log(`kill -9 after ${sent} messages`);
      const k = keeper!;
      if (k instanceof FailoverPair) {
        // The standby takes over and the killed one comes back as standby while customers keep writing. Chained
        // at once: two kills falling due during one takeover must not both pick the same active instance.
        restarting = restarting.then(() => k.killActive()).then(setWebhook);
        markHandled(restarting);
        return;
      }
      // Chained at once: two kills close together (another contact's message arriving during a kill) would
      // otherwise both see the old chain and start two bridges on one data directory.
      const stopped = restarting.then(() => k.kill());
      // The restart runs while customers keep writing: what they say meanwhile waits in the service.
      restarting = stopped.then(async () => {
        await k.start();
        await setWebhook();
      });
      markHandled(restarting);
      await stopped;
    };
    const random = seededRandom(o.seed);
    const events: DriverEvent[] = [];
    const contacts = makeContacts(o.contacts, 32_490_000_000, 'Chaos');
    await Promise.all(
      contacts.map((c) =>
        driveContact({ sim: sim!.client, requests, random, sleep, thinkMs: o.thinkMs, onMessage }, c, o.messagesPerContact, events),
      ),
    );
    await restarting;
    await keeper.start();
    log(`drive done: ${events.length} events; settling (faults stay on for up to ${o.faultySettleMs} ms)`);

    // The bridge is usually behind when the customers stop: keep the faults on while it catches up (else most of
    // its calls would dodge them), then clear them and let it finish.
    const settleStarted = Date.now();
    let faultsOn = true;
    let lastChange = Date.now();
    let lastSignature = '';
    for (;;) {
      if (faultsOn && Date.now() - settleStarted > o.faultySettleMs) {
        faultsOn = false;
        await sim.client.faults({});
        lastChange = Date.now();
      }
      await requests.catchUp();
      await outbound.catchUp();
      const v = judgeCampaign(events, requests.entries, outbound.entries);
      const signature = `${v.answered}/${v.escalated}/${outbound.entries.length}`;
      if (signature !== lastSignature) {
        lastSignature = signature;
        lastChange = Date.now();
      }
      const quietFor = Date.now() - lastChange;
      if (!faultsOn && ((v.lost === 0 && quietFor > 3000) || quietFor > o.settleMs)) break;
      if (faultsOn && v.lost === 0 && quietFor > 3000) {
        faultsOn = false;
        await sim.client.faults({});
      }
      await sleep(250);
    }
    const settleMs = Date.now() - settleStarted;
    await keeper.stop();
    await requests.stop();
    await outbound.stop();
    const verdict = judgeCampaign(events, requests.entries, outbound.entries);
    const lines = keeper.allLines();
    if (o.dumpDir) {
      await dump(o.dumpDir, { events, requests: requests.entries, outbound: outbound.entries, bridge: lines });
      if (!o.failover) await cp(join(dir, 'data'), join(o.dumpDir, 'data'), { recursive: true });
    }
    const secrets = lines.filter((l) => l.includes(token) || l.includes(webhookSecret)).length;
    const api = requests.entries.filter((r) => !r.path.startsWith('/_sim'));
    return {
      messages: verdict.messages,
      contacts: o.contacts,
      kills: keeper.kills,
      faults: {
        injected: o.faults,
        api_calls: api.length,
        answered_503: api.filter((r) => r.status === 503).length,
        answered_400: api.filter((r) => r.status === 400).length,
        dropped_or_reset: api.filter((r) => r.status === 0).length,
      },
      answered: verdict.answered,
      escalated: verdict.escalated,
      lost: verdict.lost,
      doubled: verdict.doubled,
      talk_over: verdict.talk_over,
      secrets_in_logs: secrets,
      details: {
        ...verdict.details,
        settle_ms: settleMs,
        bridge_log_lines: lines.length,
        ...(keeper instanceof BridgeKeeper ? { down_ms: keeper.downMs } : {}),
        rate_limited_ms: rateLimitedMs(api),
      },
      ...(keeper instanceof FailoverPair && o.failover
        ? {
            failover: {
              lease_ttl_ms: o.failover.leaseTtlMs,
              takeovers: keeper.takeoverMs.length,
              takeover_ms: { median: percentile(keeper.takeoverMs, 50), max: percentile(keeper.takeoverMs, 100), all: keeper.takeoverMs },
            },
          }
        : {}),
    };
  } finally {
    if (keeper instanceof FailoverPair) await keeper.killAll();
    else await keeper?.running?.child.stop('SIGKILL');
    await sim?.child.stop('SIGKILL');
    await postgres?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function dump(dir: string, material: Record<string, unknown[]>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, items] of Object.entries(material)) {
    await writeFile(join(dir, `${name}.jsonl`), items.map((i) => (typeof i === 'string' ? i : JSON.stringify(i))).join('\n'));
  }
}

/** True when any target count is not zero. */
export function chaosFailed(r: ChaosReport): boolean {
  return r.lost > 0 || r.doubled > 0 || r.talk_over > 0 || r.secrets_in_logs > 0;
}

/**
 * How long rate-limit refusals held the client, in all: the union of each refusal's `Retry-After` window, from the
 * moment the simulator sent it (the injected refusal says the budget is spent and to wait 1 s; while one holds,
 * every call of the user waits). Other 400s are not counted.
 */
export function rateLimitedMs(api: ReadonlyArray<{ error?: string; at_ms: number }>): number {
  const starts = api
    .filter((r) => r.error === 'rate_limit_reached')
    .map((r) => r.at_ms)
    .sort((a, b) => a - b);
  let total = 0;
  let end = -Infinity;
  for (const t of starts) {
    total += Math.max(0, t + 1_000 - Math.max(t, end));
    end = Math.max(end, t + 1_000);
  }
  return total;
}

/**
 * A restart that fails is reported where the drive awaits the chain, after the customers stop; until then its
 * rejection must not count as unhandled (Node would end the campaign there, leaving its processes behind).
 */
function markHandled(p: Promise<unknown>): void {
  p.catch(() => undefined);
}
