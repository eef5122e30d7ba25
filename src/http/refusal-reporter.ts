/** Where refusals are counted and, sampled, told. */
export interface RefusalSinks {
  readonly count?: (reason: string) => void;
  readonly log?: { warn(obj: object, msg: string): void };
  /** Milliseconds between two warnings (default 60 s). */
  readonly everyMs?: number;
  readonly now?: () => number;
}

/**
 * Counts every refused request (a metric) and logs a warning for the first one and then at most one per `everyMs`,
 * with how many were refused in between: a flood of bad requests cannot flood the log.
 */
export function refusalReporter(what: string, sinks: RefusalSinks): (reason: string) => void {
  const everyMs = sinks.everyMs ?? 60_000;
  const now = sinks.now ?? Date.now;
  let lastAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (reason) => {
    sinks.count?.(reason);
    unlogged++;
    const at = now();
    if (at - lastAt < everyMs) return;
    lastAt = at;
    sinks.log?.warn(
      { reason, refused: unlogged },
      `refused ${what} (counted in engage_bridge_refused_requests_total; one warning per ${Math.round(everyMs / 1000)} s)`,
    );
    unlogged = 0;
  };
}
