import type { PollCallLog } from './intake/poller-calls.js';
import type { SeenMentions } from './intake/seen-mentions.js';
// The structured-logging port the API client defines; pino satisfies it, and stays in the composition root.
import type { EngageLogger as Logger } from '../engage/index.js';
import type { GuessReport } from './guess-report.js';
import type { ChannelServices } from '../engage/index.js';
import type { Understander } from '../nlu/index.js';
import type { Store } from '../storage/index.js';
import type { EffectLines } from './effects/effect-lines.js';
import type { Flows, LanguageGuesser } from '../bot/index.js';
import type { BridgeMetrics } from './metrics-port.js';
import type { BridgeEngage } from './bridge-engage.js';
import type { Ownership } from './ownership/ownership.js';
import type { BridgeNotifier } from './notifier.js';
import type { BusinessHoursCache } from './business-hours-cache.js';
import type { PerformerDeps } from './effects/performer.js';
import type { ShadowLog } from './shadow-log.js';

export interface BridgeSettings {
  readonly channels: readonly string[];
  /** Each channel's handover `{service}` and mention `source.service` (ENGAGE_CHANNEL_SERVICES); defaults when absent. */
  readonly channelServices?: ChannelServices;
  readonly topicIds: readonly string[] | undefined;
  readonly pollIntervalMs: number;
  /** Client-side API budget per hour (0: none); polling then takes at most half of it. */
  readonly rateLimitPerHour?: number;
  readonly lookbackSeconds: number;
  readonly backfillMinutes: number;
  readonly ownerConfirmAgeMs: number;
  /** How long the belief that people hold a contact is trusted when its customer writes (a hand-back in the tool is not announced). */
  readonly agentsReconfirmAgeMs?: number;
  readonly idleReturnMinutes: number;
  /** A customer message older than this (service clock) gets the flows' late-reply turn, not a live answer (0: none). */
  readonly maxReplyAgeMinutes?: number;
  readonly stuckEscalationMinutes: number;
  readonly maxConcurrentContacts: number;
  readonly transcriptLines: number;
  readonly businessHoursSchedule: string | undefined;
  /** `shadow` (BRIDGE_MODE): read and decide as usual, write nothing to the service, tally what it would have done. */
  readonly mode?: 'live' | 'shadow';
}

/** What the bridge knows of itself at run time, for readiness, `status` and the notices. */
export interface BridgeHealthState {
  pausedForAll: boolean;
  /** Set while the token is refused: the bridge waits instead of failing every call. */
  revoked: boolean;
  lastApiOkAt?: number;
  lastPollOkAt?: number;
  newestMentionAt?: number;
  lastError?: { atMs: number; message: string };
  /** Inbox reads of the last hour (`status`). */
  pollCalls?: PollCallLog;
  /** When a read of the mentions list last listed anything (our clock). */
  pollListedAt?: number;
  /** When the webhook or the re-check by id last recorded a new customer message (our clock). */
  customerSeenElsewhereAt?: number;
  /** Guesses about the service seen not to hold, and what the start-up probes found (`status`, `doctor`). */
  guesses?: GuessReport;
  /** In shadow mode: what the bridge would have done (`status`, `shadow`). */
  shadow?: ShadowLog;
}

/** Everything the bridge's parts share; built once by `createBridge`. */
export interface BridgeContext {
  readonly store: Store;
  readonly engage: BridgeEngage;
  readonly ownership: Ownership;
  readonly flows: Flows;
  readonly now: () => number;
  readonly log: Logger;
  readonly metrics: BridgeMetrics;
  readonly notifier: BridgeNotifier;
  readonly hours: BusinessHoursCache;
  readonly settings: BridgeSettings;
  /**
   * Reads customers' texts: the NLU server when configured (within its time budget), then the embedded model trained
   * from the flows; loaded once (as the bridge starts, or at its first use); never throws.
   */
  readonly understanding: () => Promise<Understander | undefined>;
  /** The language detector, loaded once (as the bridge starts, or at its first use); undefined if it cannot be loaded. */
  readonly languageGuesser: () => Promise<LanguageGuesser | undefined>;
  readonly health: BridgeHealthState;
  /** What the effect performers use, built once (its reply-services cache lives as long as the bridge). */
  readonly performerDeps: PerformerDeps;
  /**
   * Effects known not to have happened: stored by this process and not tried, or whose last try failed with a
   * clear answer. Any other pending effect (from before a crash, or after a timeout) is checked against the
   * service before it is performed.
   */
  readonly clean: Set<string>;
  /** The mentions the store recorded lately (durably), so the poll's re-reads need not ask it (`intake/seen-mentions.ts`). */
  readonly seen: SeenMentions;
  /** Recent outcomes of the effects' service calls per kind and channel: a passing fault or an outage (`effect-lines.ts`). */
  readonly effectLines: EffectLines;
  /** Asks for a contact's worker to run (now, or at `atMs`): the dispatcher's own `wake`, built before this context. */
  readonly wake: (key: string, atMs?: number) => void;
}
