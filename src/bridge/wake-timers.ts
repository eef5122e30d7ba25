/** One timer per contact for work that must wait (a rate limit, a retry): the earliest wins. */
export class WakeTimers {
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly now: () => number,
    private readonly fire: (key: string) => void,
  ) {}

  at(key: string, atMs: number): void {
    const existing = this.timers.get(key);
    if (existing && existing.at <= atMs) return;
    if (existing) clearTimeout(existing.timer);
    const delay = Math.min(Math.max(0, atMs - this.now()), 2_147_000_000);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.fire(key);
    }, delay);
    timer.unref();
    this.timers.set(key, { at: atMs, timer });
  }

  clear(): void {
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
  }
}
