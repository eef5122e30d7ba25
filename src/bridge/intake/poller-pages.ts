import { InvalidParameterError, type InvalidListItem, type MentionListQuery, type MentionPage } from '../../engage/index.js';
import type { BridgeContext } from '../bridge-context.js';
import { accessAccepted } from '../ownership/token-health.js';

const MAX_LOGGED_INVALID = 10_000;

/** `source:whatsapp OR source:web`: only the served sources, when every name is a plain word the filter can hold. */
export function sourceFilter(channelBySource: ReadonlyMap<string, string>): string | undefined {
  const sources = [...channelBySource.keys()];
  if (sources.length === 0 || !sources.every((s) => /^[A-Za-z0-9_-]+$/.test(s))) return undefined;
  return sources.map((s) => `source:${s}`).join(' OR ');
}

/**
 * The poll's reads of the mentions list: narrowed to the served sources (`source:` clauses of the list filter)
 * unless the service refused that filter once; every call counted; every unreadable item counted and logged once.
 */
export class PollPageReader {
  /** The service refused the source filter once: every source is read. */
  private filterRefused = false;
  /** Invalid items already counted and logged. */
  private readonly loggedInvalid = new Set<string>();

  constructor(
    private readonly ctx: BridgeContext,
    private readonly channelBySource: ReadonlyMap<string, string>,
    private readonly countList: () => void,
  ) {}

  /**
   * The pages of a list read; a read refused with the filter and answered without it drops the filter for good.
   * `prefetch`: each next page is asked for while this one is recorded (for a read that goes through every page).
   */
  async *pages(query: MentionListQuery, o: { prefetch?: boolean } = {}): AsyncGenerator<MentionPage, void, undefined> {
    const filter = this.filterRefused ? undefined : sourceFilter(this.channelBySource);
    // Most items a poll reads were recorded already (its overlap, the webhook): they need no full check again.
    const known = { isKnown: (topicId: string, id: string) => this.ctx.seen.has(topicId, id), prefetch: o.prefetch };
    let yielded = false;
    try {
      for await (const page of this.ctx.engage.mentions.listPages(filter ? { ...query, filter } : query, known)) {
        this.countList();
        if (page.data.length > 0) this.ctx.health.pollListedAt = this.ctx.now();
        // Before its mentions are recorded and their contacts' workers start: they must find the bridge resumed.
        if (!yielded) await accessAccepted(this.ctx);
        yielded = true;
        yield page;
      }
      return;
    } catch (err) {
      this.countList(); // the call that failed costs as much as one that answered
      if (!filter || yielded || !(err instanceof InvalidParameterError)) throw err;
    }
    try {
      for await (const page of this.ctx.engage.mentions.listPages(query, known)) {
        this.countList();
        if (page.data.length > 0) this.ctx.health.pollListedAt = this.ctx.now();
        if (!this.filterRefused) {
          this.filterRefused = true;
          this.ctx.log.warn({ filter }, 'the service refused the source filter of the mentions list: every source is read');
        }
        yield page;
      }
    } catch (err) {
      this.countList();
      throw err;
    }
  }

  /** The start-up probe saw the filter ignored: read every source without it (issue 26). */
  dropFilter(): void {
    this.filterRefused = true;
  }

  /** Counts and logs each unreadable item once, though every overlapping poll reads it again. */
  skipInvalid(topicId: string, invalid: readonly InvalidListItem[]): void {
    for (const item of invalid) {
      const id = `${topicId}/${item.id ?? '?'}`;
      if (this.loggedInvalid.has(id)) continue;
      if (this.loggedInvalid.size >= MAX_LOGGED_INVALID) this.loggedInvalid.clear();
      this.loggedInvalid.add(id);
      this.ctx.metrics.skippedItems.inc({ source: 'poll', reason: 'invalid-mention' });
      this.ctx.log.warn({ topicId, mentionId: item.id, problem: item.problem }, 'skipped a mention that cannot be read');
    }
  }
}
