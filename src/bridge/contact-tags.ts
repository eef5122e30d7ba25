import type { BridgeContext } from './bridge-context.js';
import { splitKey } from './contact-key.js';

const TTL_MS = 10 * 60_000;

/**
 * A contact's tags (the brain escalates tagged contacts such as `vip`), fetched once per new conversation and
 * only when the flows use the contact-tag trigger; a failure to read them never stops the bot from answering.
 */
export class ContactTags {
  private readonly cache = new Map<string, { tags: string[]; at: number }>();

  constructor(private readonly ctx: BridgeContext) {}

  async of(key: string, topicId: string): Promise<string[]> {
    if (!this.ctx.flows.escalation.triggers.contact_tag.enabled) return [];
    const hit = this.cache.get(key);
    if (hit && this.ctx.now() - hit.at < TTL_MS) return hit.tags;
    const { service, serviceId } = splitKey(key);
    try {
      const contact = await this.ctx.engage.contacts.get({ service, serviceId }, { topicIds: [topicId] });
      const tags = (contact.tags ?? []).map(String);
      this.cache.set(key, { tags, at: this.ctx.now() });
      if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value as string);
      return tags;
    } catch (err) {
      this.ctx.log.warn({ contact: key, err: (err as Error).message }, "could not read the contact's tags; answering without them");
      return [];
    }
  }
}
