import type { MentionRecord } from './model.js';

const before = (a: MentionRecord, b: MentionRecord): boolean => a.added < b.added || (a.added === b.added && a.num < b.num);

/** Position of the first mention with `added >= seconds` in a list sorted by (added, num). */
export function lowerBoundByDate(list: MentionRecord[], seconds: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.added < seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position just after the mention with key (added, num) in a list sorted by (added, num). */
export function upperBoundByKey(list: MentionRecord[], added: number, num: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = list[mid]!;
    if (m.added < added || (m.added === added && m.num <= num)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Mentions by id, by topic (sorted by date then id) and by conversation thread. */
export class MentionIndex {
  private readonly byId = new Map<string, MentionRecord>();
  private readonly byTopic = new Map<number, MentionRecord[]>();
  private readonly byThread = new Map<string, MentionRecord[]>();

  /** The latest real-clock ms at which an indexed mention becomes visible in lists. */
  latestVisibleAtMs = 0;
  /** The latest service-clock second from which an indexed mention is listed (late indexing). */
  latestListedFrom = 0;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): MentionRecord | undefined {
    return this.byId.get(id);
  }

  add(m: MentionRecord): void {
    this.byId.set(m.id, m);
    if (m.visibleAtMs > this.latestVisibleAtMs) this.latestVisibleAtMs = m.visibleAtMs;
    if (m.listedFrom > this.latestListedFrom) this.latestListedFrom = m.listedFrom;
    let list = this.byTopic.get(m.topicId);
    if (!list) {
      list = [];
      this.byTopic.set(m.topicId, list);
    }
    const last = list[list.length - 1];
    if (!last || before(last, m)) list.push(m);
    else list.splice(upperBoundByKey(list, m.added, m.num), 0, m);
    const key = threadKey(m.service, m.threadId);
    const thread = this.byThread.get(key);
    if (thread) thread.push(m);
    else this.byThread.set(key, [m]);
  }

  remove(id: string): boolean {
    const m = this.byId.get(id);
    if (!m) return false;
    this.byId.delete(id);
    const list = this.byTopic.get(m.topicId);
    if (list) {
      const at = list.indexOf(m);
      if (at >= 0) list.splice(at, 1);
    }
    const thread = this.byThread.get(threadKey(m.service, m.threadId));
    if (thread) {
      const at = thread.indexOf(m);
      if (at >= 0) thread.splice(at, 1);
    }
    return true;
  }

  /** Every mention of a conversation (customer's and the account's), oldest first. */
  thread(service: string, threadId: string): readonly MentionRecord[] {
    return this.byThread.get(threadKey(service, threadId)) ?? [];
  }

  /** Mentions of the topics with `from <= added <= to`, sorted by (added, num) ascending. */
  range(topicIds: readonly number[], from: number, to: number): MentionRecord[] {
    const slices: MentionRecord[][] = [];
    for (const topicId of new Set(topicIds)) {
      const list = this.byTopic.get(topicId);
      if (!list) continue;
      const end = to >= Number.MAX_SAFE_INTEGER ? list.length : lowerBoundByDate(list, to + 1);
      slices.push(list.slice(lowerBoundByDate(list, from), end));
    }
    if (slices.length <= 1) return slices[0] ?? [];
    return slices.flat().sort((a, b) => a.added - b.added || a.num - b.num);
  }
}

export const threadKey = (service: string, threadId: string): string => `${service}\u0000${threadId}`;
