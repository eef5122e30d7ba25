import type { Effect } from '../../storage/index.js';
import type { BridgeContext } from '../bridge-context.js';

/** Starts the stored error of an attempt that got no clear answer: kept on disk, so a restart knows it too. */
const OUTCOME_UNKNOWN = 'outcome unknown: ';

export function outcomeUnknown(message: string): string {
  return message.startsWith(OUTCOME_UNKNOWN) ? message : `${OUTCOME_UNKNOWN}${message}`;
}

interface Doubts {
  /** Contacts whose effects this process has looked at. */
  readonly looked: Set<string>;
  /** Effects that may have been in flight when the previous process stopped. */
  readonly inFlight: Set<string>;
}

const perBridge = new WeakMap<object, Doubts>();

function doubtsOf(ctx: object): Doubts {
  let d = perBridge.get(ctx);
  if (!d) {
    d = { looked: new Set(), inFlight: new Set() };
    perBridge.set(ctx, d);
  }
  return d;
}

/**
 * The first time this process looks at a contact's effects. A contact's effects run one at a time and in order,
 * and a reply's completion is on disk before the next effect starts (`performReply` flushes it); other effects
 * complete lazily. So what may have been in flight when an earlier process stopped is among the due pending
 * effects up to the first reply; nothing after it, or after an effect still waiting for its retry time, started.
 */
export function lookAtContact(ctx: Pick<BridgeContext, 'clean'>, key: string, pending: readonly Effect[], nowMs: number): void {
  const d = doubtsOf(ctx);
  if (d.looked.has(key)) return;
  d.looked.add(key);
  for (const e of pending) {
    if (e.retryAt !== undefined && e.retryAt > nowMs) return;
    if (!ctx.clean.has(e.key)) d.inFlight.add(e.key);
    if (e.kind === 'reply') return;
  }
}

/**
 * Is the outcome of this effect really unknown? Only when it may have been in flight at a crash, or its last attempt
 * got no clear answer (a timeout, a reset, a 5xx). Anything else is known not to have happened and is not re-checked.
 */
export function isSuspect(ctx: Pick<BridgeContext, 'clean'>, effect: Effect): boolean {
  if (ctx.clean.has(effect.key)) return false;
  return doubtsOf(ctx).inFlight.has(effect.key) || (effect.lastError?.startsWith(OUTCOME_UNKNOWN) ?? false);
}

/** The effect is finished, or its outcome is known again. */
export function settled(ctx: object, effectKey: string): void {
  doubtsOf(ctx).inFlight.delete(effectKey);
}
