const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` when `signal` aborts; returns what detaches it. The client's stop signal lives as long as the client and
 * many calls wait on it at once (attempts in flight, calls waiting for the budget): one listener per signal serves
 * them all. A listener per call set off Node's "MaxListenersExceededWarning: possible memory leak" past ten.
 */
export function onStop(signal: AbortSignal, fn: () => void): () => void {
  let waiters = waitersOf.get(signal);
  if (!waiters) {
    const set = new Set<() => void>();
    waiters = set;
    waitersOf.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        const all = [...set];
        set.clear();
        for (const wake of all) wake();
      },
      { once: true },
    );
  }
  const mine = waiters;
  mine.add(fn);
  return () => {
    mine.delete(fn);
  };
}
