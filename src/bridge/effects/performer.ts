// The structured-logging port the API client defines; pino satisfies it, and stays in the composition root.
import type { EngageLogger as Logger } from '../../engage/index.js';
import type { Effect, Store } from '../../storage/index.js';
import type { BridgeEngage } from '../bridge-engage.js';
import type { EffectPayload } from './effect-payload.js';
import type { BridgeMetrics } from '../metrics-port.js';
import type { BridgeNotifier } from '../notifier.js';
import type { Ownership } from '../ownership/ownership.js';
import type { ReplyServices } from './reply-services.js';
import type { ShadowLog } from '../shadow-log.js';

/**
 * What a performer may use, and nothing else: handed over explicitly, built once per bridge (`createBridge`), so a
 * performer can be run in a test with a memory store and a fake client alone.
 */
export interface PerformerDeps {
  readonly store: Store;
  readonly engage: BridgeEngage;
  readonly ownership: Ownership;
  /** The services replies are published from (a cache per topic and channel). */
  readonly replyServices: ReplyServices;
  readonly notifier: BridgeNotifier;
  readonly metrics: BridgeMetrics;
  readonly log: Logger;
  readonly now: () => number;
  /** In shadow mode: replies and escalations are tallied here (the client sends nothing). */
  readonly shadow?: ShadowLog;
}

export type EffectKind = EffectPayload['kind'];
export type PayloadOf<K extends EffectKind> = Extract<EffectPayload, { kind: K }>;

/**
 * Performs one kind of outbox effect against the service; throws to let the outbox retry or park it. `suspect`:
 * the effect may already have taken effect (a crash, an unanswered call), so whatever cannot be repeated safely is
 * looked for first. What it returns is kept on the effect.
 */
export type Performer<K extends EffectKind> = (
  deps: PerformerDeps,
  effect: Effect,
  payload: PayloadOf<K>,
  suspect: boolean,
) => Promise<unknown>;

/**
 * Results whose performer recorded the effect's end itself (completed, on disk) before returning them: the outbox
 * need not read the effect back to find out (issue 28: a store read per reply). Marked by identity, so what is kept
 * on the effect is unchanged.
 */
const endRecorded = new WeakSet<object>();

/** Marks a result whose effect its performer has completed in the store. */
export function endRecordedBy<T extends object>(result: T): T {
  endRecorded.add(result);
  return result;
}

/** Whether the performer completed the effect itself (see `endRecordedBy`). */
export function isEndRecorded(result: unknown): boolean {
  return typeof result === 'object' && result !== null && endRecorded.has(result);
}

/** One performer per effect kind: a kind without one does not compile. */
export type Performers = { readonly [K in EffectKind]: Performer<K> };
