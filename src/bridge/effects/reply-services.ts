import { DEFAULT_CHANNEL_SERVICES, sourceServiceOf, type ChannelServices } from '../../engage/index.js';
import type { BridgeEngage } from '../bridge-engage.js';

/** One service a reply is published from: one of the account's own profiles, as `GET publisher/add` lists it. */
export interface ReplyService {
  readonly type: string;
  readonly service_id: string;
}

/** How long a listed answer is trusted before it is asked again (profiles change rarely; a refusal refreshes at once). */
export const REPLY_SERVICES_TTL_MS = 30 * 60_000;

/**
 * The services the bot replies from, per topic and channel. The description says the services of a reply are
 * "taken from GET" publisher/add: the account's own profiles that can answer that mention, never the customer.
 * One GET per topic and channel, kept for a while, dropped when the service refuses a reply sent from it.
 */
export class ReplyServices {
  private readonly cache = new Map<string, { services: readonly ReplyService[]; atMs: number }>();
  /** Lookups under way: contacts that need the same answer at the same moment share one GET. */
  private readonly asking = new Map<string, Promise<readonly ReplyService[]>>();
  /** Refusals per key: a lookup that started before one does not cache its (possibly old) answer. */
  private readonly refusals = new Map<string, number>();
  /** Topics and channels whose GET listed more than one service to reply with: asked per mention from then on. */
  private readonly several = new Set<string>();
  /** Every service of the account GET publisher/add listed: ids by type, and the names they show. */
  private readonly ownIds = new Set<string>();
  private readonly ownNames = new Set<string>();

  constructor(
    private readonly engage: Pick<BridgeEngage, 'publisher'>,
    private readonly now: () => number,
    private readonly channelServices: ChannelServices = DEFAULT_CHANNEL_SERVICES,
  ) {}

  /** The services to reply to this mention with; asks the service when nothing fresh is cached. */
  async forReply(channel: string, target: { topicId: string; mentionId: string }): Promise<readonly ReplyService[]> {
    const shared = cacheKey(target.topicId, channel);
    const key = this.several.has(shared) ? `${shared}\u0000${target.mentionId}` : shared;
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.atMs < REPLY_SERVICES_TTL_MS) return hit.services;
    const under = this.asking.get(key);
    if (under) return under;
    const asked = this.ask(key, channel, target).finally(() => {
      if (this.asking.get(key) === asked) this.asking.delete(key);
    });
    this.asking.set(key, asked);
    return asked;
  }

  /**
   * Starts the lookup when nothing fresh is cached, without waiting for it: a contact's first reply then finds the
   * answer ready (or joins the GET under way). A failure is left for the reply itself to meet and judge.
   */
  prefetch(channel: string, target: { topicId: string; mentionId: string }): void {
    this.forReply(channel, target).catch(() => undefined);
  }

  private async ask(key: string, channel: string, target: { topicId: string; mentionId: string }): Promise<readonly ReplyService[]> {
    const refusalsBefore = this.refusals.get(key) ?? 0;
    const answer = await this.engage.publisher.services({ type: 'reply', topicId: target.topicId, mentionId: target.mentionId });
    const listed = answer.services.map((s) => ({ type: s.type, service_id: String(s.service_id) }));
    for (const s of answer.services) {
      this.ownIds.add(`${s.type}\u0000${String(s.service_id)}`);
      if (typeof s.name === 'string' && s.name !== '') this.ownNames.add(s.name);
    }
    // The list is for this mention already; keep the channel's own type when the service lists more than one.
    const source = sourceServiceOf(this.channelServices, channel);
    const own = listed.filter((s) => s.type === source);
    const candidates = own.length > 0 ? own : listed;
    const first = candidates[0];
    if (first === undefined) {
      throw new Error(
        `Engage lists no service to reply with on ${channel} (topic ${target.topicId}): check the account's ${channel} profile`,
      );
    }
    // One reply goes out from one service: the first GET lists for this very mention, never every listed service (a
    // second profile of the channel would send the customer the same reply twice, or from a number they never wrote
    // to). When the topic and channel list several, each mention asks for its own.
    const services = [first];
    if (candidates.length > 1) this.several.add(cacheKey(target.topicId, channel));
    if ((this.refusals.get(key) ?? 0) === refusalsBefore) this.cache.set(key, { services, atMs: this.now() });
    return services;
  }

  /** Whether this author is one of the account's own services (a stream the account publishes from), as listed so far. */
  isOwnService(type: string | undefined, id: string | undefined): boolean {
    return type !== undefined && id !== undefined && this.ownIds.has(`${type}\u0000${id}`);
  }

  /** Whether this name is one a listed service of the account shows (a stream's name, not a person's). */
  isStreamName(name: string): boolean {
    return this.ownNames.has(name);
  }

  /** The service refused a reply: ask again next time (a profile may have been reconnected). */
  forget(channel: string, topicId: string, mentionId?: string): void {
    const shared = cacheKey(topicId, channel);
    // A lookup that started before the refusal may bring the old answer: the next reply asks afresh.
    for (const key of mentionId === undefined ? [shared] : [shared, `${shared}\u0000${mentionId}`]) {
      this.cache.delete(key);
      this.asking.delete(key);
      this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
    }
  }
}

function cacheKey(topicId: string, channel: string): string {
  return `${topicId}\u0000${channel}`;
}
