/**
 * Failed webhook attempts per caller address: after `limit` failures within `windowMs` the address is refused
 * (429) until the window has passed, so a secret cannot be guessed at speed. Bounded in memory.
 */
export class FailedAttempts {
  private readonly byAddress = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly maxAddresses = 10_000,
  ) {}

  /** Milliseconds until the address may try again; 0 when it may try now. */
  blockedForMs(address: string): number {
    const entry = this.byAddress.get(address);
    if (!entry) return 0;
    const left = entry.since + this.windowMs - this.now();
    if (left <= 0) {
      this.byAddress.delete(address);
      return 0;
    }
    return entry.count >= this.limit ? left : 0;
  }

  fail(address: string): void {
    const entry = this.byAddress.get(address);
    if (entry && this.now() - entry.since < this.windowMs) {
      entry.count++;
      return;
    }
    if (this.byAddress.size >= this.maxAddresses) this.byAddress.clear();
    this.byAddress.set(address, { count: 1, since: this.now() });
  }
}
