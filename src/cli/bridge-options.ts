import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { BridgeSettings } from '../bridge/bridge-context.js';
import type { ConcurrencyLimits } from '../engage/index.js';
import { createNluClient, type NluParser } from '../nlu/index.js';
import type { RunningSimulator } from '../simulator/index.js';

/**
 * How many calls of each class the bridge's client has in flight. Replies to different contacts go out side by
 * side (each contact stays in order in its own worker); polls are one at a time anyway.
 */
export const BRIDGE_CLIENT_CONCURRENCY = { read: 8, write: 8, handover: 4 } as const;

/**
 * The client's classes for a bridge working on `maxConcurrentContacts` contacts at once. Handover calls (a contact's
 * owner check, its claim) and reads (a new contact's facts) are made by each contact's worker one at a time, beside
 * the poller's one read at a time, so there are hardly more in flight than contacts at work: those classes let them all
 * go, and a burst of new contacts does not queue one contact's claim or facts behind every other contact's (at 100 ms
 * a call, 20 new contacts waited 1.3 s before their first reply). Writes stay where the limit run measures them.
 */
export function bridgeClientConcurrency(maxConcurrentContacts: number): ConcurrencyLimits {
  const c = BRIDGE_CLIENT_CONCURRENCY;
  const contacts = Math.min(maxConcurrentContacts, CONTACT_CALLS_MAX);
  return { read: Math.max(c.read, contacts), write: c.write, handover: Math.max(c.handover, contacts) };
}

/**
 * However many contacts run at once (the setting allows 1,000), the reads and handover calls in flight stay under
 * this: the service then sees at most 64 + 8 + 64 connections from the bridge (one per call in flight).
 */
export const CONTACT_CALLS_MAX = 64;

/** The bridge's part of the settings. */
export function bridgeSettingsOf(config: Config): BridgeSettings {
  const b = config.bridge;
  return {
    channels: config.engage.channels,
    channelServices: config.engage.channelServices,
    topicIds: config.engage.topicIds,
    rateLimitPerHour: config.engage.rateLimitPerHour,
    pollIntervalMs: b.pollIntervalMs,
    lookbackSeconds: b.lookbackSeconds,
    backfillMinutes: b.backfillMinutes,
    ownerConfirmAgeMs: b.ownerConfirmAgeMs,
    agentsReconfirmAgeMs: b.agentsReconfirmAgeMs,
    idleReturnMinutes: b.idleReturnMinutes,
    maxReplyAgeMinutes: b.maxReplyAgeMinutes,
    stuckEscalationMinutes: b.stuckEscalationMinutes,
    maxConcurrentContacts: b.maxConcurrentContacts,
    transcriptLines: b.transcriptLines,
    businessHoursSchedule: b.businessHoursSchedule,
    mode: b.mode,
  };
}

/** The NLU client; its failures are logged without the server's address (it may carry credentials). */
export function nluClientOf(config: Config, now: () => number, log: Logger): NluParser {
  const nluLog = log.child({ component: 'nlu' });
  return createNluClient({
    url: config.nlu.url ?? '',
    timeoutMs: config.nlu.timeoutMs,
    breakerFailures: config.nlu.breakerFailures,
    breakerOpenMs: config.nlu.breakerOpenMs,
    now,
    onFailure: (why) => nluLog.warn({ why }, 'NLU gave no answer; matching keywords instead'),
    onBreaker: (state) =>
      state === 'open'
        ? nluLog.error({ forMs: config.nlu.breakerOpenMs }, 'NLU failed repeatedly: not asking it for a while')
        : nluLog.info({}, 'NLU answers again'),
  });
}

/** The client-side token bucket for ENGAGE_RATE_LIMIT_PER_HOUR (0: only the service's own headers). */
export function bucketOf(perHour: number) {
  // 0: no client-side budget beyond the service's own headers.
  if (perHour <= 0) return { burst: 200, requestsPerSecond: 500 };
  return { burst: Math.max(1, Math.min(20, Math.floor(perHour / 60))), requestsPerSecond: perHour / 3600 };
}

/** The demo's embedded simulator, on its usual port when free. */
export async function startDemoSimulator(port: number | undefined, log: Logger): Promise<RunningSimulator> {
  // Loaded here, not at start-up: a bridge in front of the real service never needs the simulator's code.
  const { createSimulator } = await import('../simulator/index.js');
  const handle = createSimulator();
  try {
    return await handle.listen({ host: '127.0.0.1', port: port ?? 4010 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    log.warn({ port: port ?? 4010 }, 'the demo port is taken; the simulator uses any free port');
    return handle.listen({ host: '127.0.0.1', port: 0 });
  }
}
