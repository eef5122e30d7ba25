import type { PollWindow } from './poll-window.js';

/**
 * A topic's baseline read (its first: what it shows is history) may fail and be tried again minutes later. What was
 * written after the first try is a customer waiting, not history, and the retry still reaches back to it. Both are
 * measured on the service's clock (its answers' `Date`), never on ours.
 *
 * The tries are those of one baseline: once it is read (the topic has a cursor), they are forgotten. A topic whose
 * cursor is gone later gets a baseline of its own, whose history ends at its own first try: kept, the start's try
 * would make everything written since the start (minutes or days) new, and answered.
 */
export class BaselineTries {
  /** The service's time (UNIX seconds) at each topic's first try, once known. */
  private readonly first = new Map<string, number>();
  /** Our clock (ms) at a topic's first try made before the service had ever answered (its time then unknown). */
  private readonly blind = new Map<string, number>();

  /**
   * Notes the first try's time, if not known yet (call before the read, and again once an answer came). A first try
   * made before the service ever answered is placed once it does: the service's time then, less the time since the
   * try on our clock (a duration: the two clocks are never compared).
   */
  note(topicId: string, serviceNowMs: number | undefined, ourNowMs: number): void {
    if (this.first.has(topicId)) return;
    if (serviceNowMs === undefined) {
      if (!this.blind.has(topicId)) this.blind.set(topicId, ourNowMs);
      return;
    }
    const since = Math.max(0, ourNowMs - (this.blind.get(topicId) ?? ourNowMs));
    this.first.set(topicId, Math.floor((serviceNowMs - since) / 1000));
    this.blind.delete(topicId);
  }

  /** The first try's time on the service's clock is known. */
  knows(topicId: string): boolean {
    return this.first.has(topicId);
  }

  /** The topic's baseline was read through (its cursor is stored): its tries are over. */
  done(topicId: string): void {
    this.first.delete(topicId);
    this.blind.delete(topicId);
  }

  /** Where a baseline read starts and what of it is history; `reachSeconds` is how far back a first try reaches. */
  plan(topicId: string, window: PollWindow, reachSeconds: number): { fromSeconds: number; historyBefore: number } {
    const first = this.first.get(topicId);
    if (first === undefined) return { fromSeconds: window.fromSeconds, historyBefore: window.answerFromSeconds };
    return {
      fromSeconds: Math.min(window.fromSeconds, first - reachSeconds),
      historyBefore: Math.min(window.answerFromSeconds, first + 1),
    };
  }
}
