import type { Effect } from '../../storage/index.js';
import { splitKey } from '../contact-key.js';

/** Outcomes kept per line: enough to judge the last few seconds of a busy bridge. */
const KEPT = 64;
/** A passing fault: since the effect last failed, at least this many of its line went through… */
const MIN_THROUGH = 2;
/** …and at most one call in this many failed (a service failing more often is struggling: back off). */
const ONE_FAILURE_IN = 5;

/** Effects that share a way out: a reply on WhatsApp fails with WhatsApp, not with live chat. */
export function effectLine(effect: Pick<Effect, 'kind' | 'contactKey'>): string {
  return `${effect.kind}:${splitKey(effect.contactKey).channel}`;
}

/**
 * The recent outcomes of the service calls of each line (effect kind and channel), on our clock, in memory: they tell
 * an effect that met a passing fault (the rest of its line goes through) from an outage or a struggling service
 * (nothing, or too little, goes through), for the outbox's backoff (`effect-errors.ts`). Effects that made no call (a
 * reply skipped because people hold the contact) are not recorded: they say nothing of the service.
 */
export class EffectLines {
  private readonly lines = new Map<string, Array<{ readonly atMs: number; readonly ok: boolean }>>();

  record(line: string, atMs: number, ok: boolean): void {
    const outcomes = this.lines.get(line) ?? [];
    outcomes.push({ atMs, ok });
    if (outcomes.length > KEPT) outcomes.splice(0, outcomes.length - KEPT);
    this.lines.set(line, outcomes);
  }

  /** Whether the line's calls since `sinceMs` went through enough to call a failure then a passing fault. */
  passingSince(line: string, sinceMs: number): boolean {
    let through = 0;
    let failed = 0;
    for (const o of this.lines.get(line) ?? []) {
      if (o.atMs <= sinceMs) continue;
      if (o.ok) through++;
      else failed++;
    }
    return through >= MIN_THROUGH && failed * ONE_FAILURE_IN <= through + failed;
  }
}
