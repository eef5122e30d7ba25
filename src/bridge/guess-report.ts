import type { EngageLogger as Logger } from '../engage/index.js';
import type { CounterPort } from './metrics-port.js';

/**
 * Things the bridge relies on that `engage-api.md` does not state (issue 26). When one is seen not to hold, the
 * bridge takes the safe side (README, "Guesses about the service") and says so here: counted per guess
 * (`engage_bridge_guess_not_held_total{guess}`), logged once per guess, and shown by `status`.
 */
export type GuessName =
  /** A handover item carries `date.updated` (null: never handed over). */
  | 'handover-history'
  /** The account's own messages name the publishing user; publisher mentions carry `user_id`. */
  | 'own-echo-author'
  /** A 2xx `publisher/add` answers with the envelope `{messages, publisher_mention}`. */
  | 'publish-answer'
  /** `inbox/mentions` honours the parameters the poller sends (window, order, source filter, topics, page size). */
  | 'mentions-window'
  | 'mentions-order'
  | 'mentions-filter'
  /** Every contact has a handover item (a first contact's GET does not answer 404). */
  | 'handover-item-exists';

/** What a start-up (or `doctor`) probe found: whether the guess holds, and in words what was seen. */
export interface ProbeResult {
  readonly holds: boolean;
  readonly detail: string;
}

export interface GuessSnapshot {
  /** Times each guess was seen not to hold since the start. */
  readonly notHeld: Readonly<Partial<Record<GuessName, number>>>;
  /** The start-up probes' findings, by probe name. */
  readonly probes: Readonly<Record<string, ProbeResult>>;
}

export class GuessReport {
  private readonly counts = new Map<GuessName, number>();
  private readonly probes = new Map<string, ProbeResult>();

  constructor(
    private readonly deps: { readonly log: Pick<Logger, 'warn' | 'info'>; readonly counter?: CounterPort<'guess'> | undefined },
  ) {}

  /** The guess did not hold this once; the bridge took the safe side (`detail` says which, for the first log line). */
  notHeld(guess: GuessName, detail: string, fields: Record<string, unknown> = {}): void {
    const n = (this.counts.get(guess) ?? 0) + 1;
    this.counts.set(guess, n);
    this.deps.counter?.inc({ guess });
    if (n === 1) this.deps.log.warn({ guess, ...fields }, `a guess about the service did not hold (logged once; counted): ${detail}`);
  }

  recordProbe(name: string, result: ProbeResult): void {
    const before = this.probes.get(name);
    this.probes.set(name, result);
    if (before?.holds === result.holds && before.detail === result.detail) return;
    const line = `start-up probe ${name}: ${result.holds ? 'holds' : 'does not hold'} (${result.detail})`;
    if (result.holds) this.deps.log.info({ probe: name }, line);
    else this.deps.log.warn({ probe: name }, line);
  }

  probe(name: string): ProbeResult | undefined {
    return this.probes.get(name);
  }

  snapshot(): GuessSnapshot {
    return { notHeld: Object.fromEntries(this.counts), probes: Object.fromEntries(this.probes) };
  }
}
