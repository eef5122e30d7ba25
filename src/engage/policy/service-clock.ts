import type { HeaderBag } from '../errors/rate-limit-headers.js';

function dateHeader(headers: HeaderBag): string | undefined {
  const value = headers['date'] ?? headers['Date'];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The service's clock as its answers tell it (the HTTP `Date` header of every answer). Instants the service
 * stamps (a mention's `date.added`) are only ever compared with this clock, never with ours: the two may disagree
 * by seconds or hours. Our own clock only measures the time elapsed since the last answer.
 */
export class ServiceClock {
  /** The service's time minus ours, in ms, as of the latest answer with a readable `Date`. */
  private offsetMs: number | null = null;

  constructor(private readonly clock: () => number) {}

  /** Reads the `Date` of an answer received at `receivedAtMs` (our clock). An unreadable one changes nothing. */
  observe(headers: HeaderBag, receivedAtMs: number): void {
    const raw = dateHeader(headers);
    if (raw === undefined) return;
    const at = Date.parse(raw);
    if (Number.isNaN(at)) return;
    // `Date` has whole seconds: the middle of that second is the best estimate.
    this.offsetMs = at + 500 - receivedAtMs;
  }

  /** The service's time now (epoch ms), or undefined until an answer carried a `Date`. */
  nowMs(): number | undefined {
    return this.offsetMs === null ? undefined : this.clock() + this.offsetMs;
  }
}
