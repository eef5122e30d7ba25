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

/**
 * Position just after the mention with key (added, num, topic) in a list sorted by that key. Topics may share ids
 * (`overlapping_mention_ids`), so the topic breaks ties; a key without a topic (`Infinity`) passes every topic.
 */
export function upperBoundByKey(list: MentionRecord[], added: number, num: number, topic = Number.POSITIVE_INFINITY): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = list[mid]!;
    if (m.added < added || (m.added === added && (m.num < num || (m.num === num && m.topicId <= topic)))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The list order: date added, then id, then topic (ids are unique per topic only). */
export const byListKey = (a: MentionRecord, b: MentionRecord): number => a.added - b.added || a.num - b.num || a.topicId - b.topicId;

/** Mentions by id (one per topic), by topic (sorted by date then id) and by conversation thread. */
export class MentionIndex {
  private readonly byId = new Map<string, MentionRecord[]>();
  private count = 0;
  /** The highest id number each topic ever held (ids are never reused within a topic). */
  private readonly topNum = new Map<number, number>();
  private readonly byTopic = new Map<number, MentionRecord[]>();
  private readonly byThread = new Map<string, MentionRecord[]>();

  /** The latest real-clock ms at which an indexed mention becomes visible in lists. */
  latestVisibleAtMs = 0;
  /** The latest service-clock second from which an indexed mention is listed (late indexing). */
  latestListedFrom = 0;

  get size(): number {
    return this.count;
  }

  /** The mention `id` of the topic; without a topic, the first one with that id (ids overlap only when asked). */
  get(id: string, topicId?: number | string | null): MentionRecord | undefined {
    const same = this.byId.get(id);
    if (topicId === undefined || topicId === null) return same?.[0];
    return same?.find((m) => String(m.topicId) === String(topicId));
  }

  /** The highest id number the topic ever held (0: none). */
  topNumOf(topicId: number): number {
    return this.topNum.get(topicId) ?? 0;
  }

  add(m: MentionRecord): void {
    const same = this.byId.get(m.id);
    if (same) same.push(m);
    else this.byId.set(m.id, [m]);
    this.count++;
    this.topNum.set(m.topicId, Math.max(this.topNum.get(m.topicId) ?? 0, m.num));
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

  remove(id: string, topicId?: number | string): boolean {
    const m = this.get(id, topicId);
    if (!m) return false;
    const same = this.byId.get(id) ?? [];
    if (same.length <= 1) this.byId.delete(id);
    else same.splice(same.indexOf(m), 1);
    this.count--;
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
    return slices.flat().sort(byListKey);
  }
}

export const threadKey = (service: string, threadId: string): string => `${service}\u0000${threadId}`;
