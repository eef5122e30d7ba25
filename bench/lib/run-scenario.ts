import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeContacts, plainText, sendBurst } from './load-driver.js';
import { LogTail } from './log-tail.js';
import { measureFlowLimit, measureLimit } from './measure-limit.js';
import { writeOpenHoursSeed } from './open-hours-seed.js';
import { startBridge, startSimulator, type RunningBridge, type RunningSim } from './processes.js';
import { processCpuMs } from './process-cpu.js';
import { processMemoryMb } from './process-memory.js';
import { burstPhase, callsPerAnswerOf, escalationPhase, pacedPhase, throughputOf, type PhaseContext } from './scenario-phases.js';
import { seedConversations } from './seed-store.js';
import { directoryBytes, StoreWriteWatch } from './store-watch.js';
import { summarize } from './percentiles.js';
import type { ScenarioResult, ScenarioSpec } from './scenario-types.js';
import { budgetCheck } from './budget-check.js';
import { burstTimeline } from './burst-timeline.js';
import type { WebhookStatus } from './sim-client.js';

const WEBHOOK_SECRET = 'bench-webhook-secret-32-characters-or-more';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const round1 = (v: number) => Math.round(v * 10) / 10;

/** Runs one scenario end to end: its own simulator and bridge processes, its own data directory. */
export async function runScenario(spec: ScenarioSpec, index: number): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'engage-bench-'));
  const dataDir = join(dir, 'data');
  let sim: RunningSim | undefined;
  let bridge: RunningBridge | undefined;
  let watch: StoreWriteWatch | undefined;
  try {
    if (spec.storedConversations > 0) await seedConversations(dataDir, spec.storedConversations);
    sim = await startSimulator({ seedFile: await writeOpenHoursSeed(dir) });
    if (spec.apiLatencyMs > 0) await sim.client.faults({ latency_ms: spec.apiLatencyMs });
    if (spec.rateLimitPerHour > 0) await sim.client.rateLimit(Math.ceil(spec.rateLimitPerHour / 60) + 20, 60);
    bridge = await startBridge(sim.url, {
      dataDir,
      pollIntervalMs: spec.pollIntervalMs,
      rateLimitPerHour: spec.rateLimitPerHour,
      ...(spec.ingestion === 'webhook' ? { webhookSecret: WEBHOOK_SECRET } : {}),
      // The limit is measured at this concurrency, so the bridge must run at it too.
      extra: { BRIDGE_MAX_CONCURRENT_CONTACTS: String(spec.concurrency) },
    });
    const rssAtReady = await processMemoryMb(bridge.child.pid);
    if (spec.ingestion === 'webhook') await sim.client.webhook(`${bridge.url}/webhooks/engage/${WEBHOOK_SECRET}`);
    watch = new StoreWriteWatch(bridge.child.pid, bridge.url);
    await watch.start();
    const outbound = LogTail.outbound(sim.client, 10);
    const requests = LogTail.requests(sim.client, 250);
    outbound.start();
    requests.start();
    const ctx: PhaseContext = { sim: sim.client, outbound, requests, stallMs: spec.stallMs, phaseDeadlineMs: spec.phaseDeadlineMs, sleep };
    const base = 32_480_000_000 + index * 1_000_000;
    const contacts = makeContacts(spec.contacts, base);
    const loadStarted = Date.now();
    const simClient = sim.client;
    const pushes = spec.ingestion === 'webhook' ? () => simClient.webhookStatus() : async () => undefined;
    const pushesAtStart = await pushes();
    const cpuAtStart = await processCpuMs(bridge.child.pid);
    const simCpuAtStart = await processCpuMs(sim.child.pid);
    const burst = spec.burst ? await burstPhase(ctx, contacts, spec.rounds, plainText) : undefined;
    const cpuAfterBurst = await processCpuMs(bridge.child.pid);
    const simCpuAfterBurst = await processCpuMs(sim.child.pid);
    const pushesAfterBurst = await pushes();
    const paced = spec.pacedPerSecond
      ? await pacedPhase(ctx, contacts, spec.rounds, plainText, spec.pacedPerSecond, spec.burst ? spec.rounds : 0)
      : undefined;
    const cpuAfterPaced = await processCpuMs(bridge.child.pid);
    const pushesAfterPaced = await pushes();
    const escalation =
      spec.escalations > 0 ? await escalationPhase(ctx, makeContacts(spec.escalations, base + 500_000, 'Asker')) : undefined;
    const loadEnded = Date.now();
    const memory = await processMemoryMb(bridge.child.pid);
    await outbound.stop();
    await requests.stop();
    const written = await watch.stop();
    await bridge.child.stop('SIGTERM');
    const storeBytes = await directoryBytes(dataDir);
    const budget = spec.rateLimitPerHour > 0 && burst ? budgetCheck(burst.requests, spec.rateLimitPerHour) : null;

    let limit: Awaited<ReturnType<typeof measureLimit>> | undefined;
    let limitSimCpuMsPerReply: number | null = null;
    let flowLimit: Awaited<ReturnType<typeof measureFlowLimit>> | undefined;
    const throughput = burst ? throughputOf(burst) : null;
    if (spec.limit && burst) {
      // The same number of replies to fresh mentions, by the client alone; the bridge is stopped by now.
      const targets = await sendBurst(sim.client, makeContacts(spec.contacts, base + 700_000, 'Limit'), spec.rounds, plainText);
      const simCpuBefore = await processCpuMs(sim.child.pid);
      limit = await measureLimit(sim.url, targets, { concurrency: spec.concurrency, rateLimitPerHour: spec.rateLimitPerHour });
      const simCpuAfter = await processCpuMs(sim.child.pid);
      limitSimCpuMsPerReply = cpuPerAnswerOf(simCpuBefore, simCpuAfter, targets.length);
      // The same again, with the calls the API requires of each new contact before its first reply.
      const flowTargets = await sendBurst(sim.client, makeContacts(spec.contacts, base + 800_000, 'Flow'), spec.rounds, plainText);
      flowLimit = await measureFlowLimit(sim.url, flowTargets, { concurrency: spec.concurrency, rateLimitPerHour: spec.rateLimitPerHour });
    }
    const steady = paced ?? burst;
    const messages = (burst?.sent.length ?? 0) + (paced?.sent.length ?? 0);
    const answered = (burst?.answered.answered ?? 0) + (paced?.answered.answered ?? 0);
    const loadSeconds = Math.max(0.001, (loadEnded - loadStarted) / 1000);
    return {
      name: spec.name,
      ingestion: spec.ingestion,
      api_latency_ms: spec.apiLatencyMs,
      poll_interval_ms: spec.pollIntervalMs,
      messages,
      throughput_per_s: throughput,
      limit_per_s: limit?.perSecond ?? null,
      ratio: ratioOf(throughput, limit),
      flow_limit_per_s: flowLimit?.perSecond ?? null,
      flow_ratio: ratioOf(throughput, flowLimit),
      burst_cpu_ms_per_answer: burst ? cpuPerAnswerOf(cpuAtStart, cpuAfterBurst, burst.answered.answered) : null,
      latency_ms: paced ? summarize(paced.answered.latenciesMs) : { p50: null, p95: null, p99: null },
      api_calls_per_answer: steady ? callsPerAnswerOf(steady).total : null,
      api_calls_per_escalation: escalation?.callsPerEscalation ?? null,
      peak_rss_mb: memory?.peakMb ?? null,
      store_writes_per_s: watch.peakWritesPerSecond,
      fsyncs_per_s: written.writes === null ? null : round1(written.writes / written.seconds),
      disk_bytes_per_answer: answered > 0 && written.diskBytes !== null ? Math.round(written.diskBytes / answered) : null,
      durability: 'fsync',
      stored_conversations: spec.storedConversations,
      startup_ms: bridge.startupMs,
      details: {
        answered,
        unanswered: messages - answered,
        burst: burst
          ? {
              messages: burst.sent.length,
              answered: burst.answered.answered,
              calls_per_answer: callsPerAnswerOf(burst),
              timeline: burstTimeline(burst.startedAt, burst.sent, burst.answered.lastReplyAt, burst.requests),
            }
          : null,
        paced: paced
          ? {
              per_second: spec.pacedPerSecond,
              messages: paced.sent.length,
              answered: paced.answered.answered,
              calls_per_answer: callsPerAnswerOf(paced),
            }
          : null,
        escalation: escalation ?? null,
        limit: limit ? { ...limit, simCpuMsPerReply: limitSimCpuMsPerReply } : null,
        flow_limit: flowLimit ?? null,
        store: {
          writes: written.writes,
          mean_writes_per_s: written.writes === null ? null : round1(written.writes / loadSeconds),
          disk_bytes: written.diskBytes,
          size_bytes: storeBytes,
        },
        // The bridge process's own CPU (user + system) per answered message of the burst and paced phases: steadier than wall-clock figures on a shared machine.
        cpu_ms_per_answer: cpuPerAnswerOf(cpuAtStart, cpuAfterPaced, answered),
        // The simulator's CPU per answered message of the burst: with the bridge's, what the two cores had to carry.
        burst_sim_cpu_ms_per_answer: burst ? cpuPerAnswerOf(simCpuAtStart, simCpuAfterBurst, burst.answered.answered) : null,
        webhook:
          pushesAtStart && pushesAfterBurst && pushesAfterPaced
            ? {
                burst: pushesBetween(pushesAtStart, pushesAfterBurst),
                paced: pushesBetween(pushesAfterBurst, pushesAfterPaced),
                failed: pushesAfterPaced.failed,
              }
            : null,
        rss_mb_at_ready: rssAtReady?.rssMb ?? null,
        rss_mb_at_end: memory?.rssMb ?? null,
        budget,
      },
    };
  } finally {
    await watch?.stop();
    await bridge?.child.stop('SIGKILL');
    await sim?.child.stop('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

function ratioOf(throughput: number | null, limit: { perSecond: number } | undefined): number | null {
  return limit && throughput !== null && limit.perSecond > 0 ? Math.round((throughput / limit.perSecond) * 100) / 100 : null;
}

/** Mentions the simulator pushed between two readings of its status, and in how many requests. */
function pushesBetween(from: WebhookStatus, to: WebhookStatus): { mentions: number; pushes: number | null } {
  const pushes = to.pushes === undefined || from.pushes === undefined ? null : to.pushes - from.pushes;
  return { mentions: to.delivered - from.delivered, pushes };
}

/** CPU ms per item between two readings of a process's CPU time (null when either reading failed). */
function cpuPerAnswerOf(from: number | null, to: number | null, count: number): number | null {
  return from === null || to === null || count === 0 ? null : Math.round(((to - from) / count) * 100) / 100;
}
