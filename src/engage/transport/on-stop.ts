const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` when `signal` aborts; returns what detaches it. The client's stop signal lives as long as the client and
 * many calls wait on it at once (attempts in flight, calls waiting for the budget): one listener per signal serves
 * them all (and adding and removing EventTarget listeners is slow in Node 20). A listener per call set off Node's
 * "MaxListenersExceededWarning: possible memory leak" past ten.
 */
export function onStop(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    // Stopped already: the waiter is woken at once (on the next microtask, as the abort event would have).
    let detached = false;
    queueMicrotask(() => {
      if (!detached) fn();
    });
    return () => {
      detached = true;
    };
  }
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
        // Every waiter is woken even if one throws; the first error then goes where a throwing abort listener's would.
        let failure: { error: unknown } | undefined;
        for (const wake of all) {
          try {
            wake();
          } catch (error) {
            failure ??= { error };
          }
        }
        if (failure) {
          const { error } = failure;
          queueMicrotask(() => {
            throw error;
          });
        }
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
