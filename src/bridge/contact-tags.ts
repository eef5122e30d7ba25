import type { BridgeContext } from './bridge-context.js';
import { splitKey } from './contact-key.js';

const TTL_MS = 10 * 60_000;

/**
 * A contact's tags (the brain escalates tagged contacts such as `vip`), fetched once per new conversation and
 * only when the flows use the contact-tag trigger; a failure to read them never stops the bot from answering.
 */
export interface ContactFacts {
  tags: string[];
  /** Custom attributes, read only when the flows name one holding the contact's language. */
  attributes?: Record<string, unknown>;
}

export class ContactTags {
  private readonly cache = new Map<string, { facts: ContactFacts; at: number }>();

  constructor(private readonly ctx: BridgeContext) {}

  async of(key: string, topicId: string): Promise<string[]> {
    return (await this.facts(key, topicId)).tags;
  }

  /** Tags and (when the flows want the contact's language) custom attributes; empty when not needed or unreadable. */
  async facts(key: string, topicId: string): Promise<ContactFacts> {
    const wantTags = this.ctx.flows.escalation.triggers.contact_tag.enabled;
    const wantAttributes = this.ctx.flows.languages.contact_attribute !== undefined;
    if (!wantTags && !wantAttributes) return { tags: [] };
    const hit = this.cache.get(key);
    if (hit && this.ctx.now() - hit.at < TTL_MS) return hit.facts;
    const { service, serviceId } = splitKey(key);
    try {
      const contact = await this.ctx.engage.contacts.get({ service, serviceId }, { topicIds: [topicId] });
      const facts: ContactFacts = {
        tags: wantTags ? (contact.tags ?? []).map(String) : [],
        ...(wantAttributes && contact.customattributes ? { attributes: { ...contact.customattributes } } : {}),
      };
      this.cache.set(key, { facts, at: this.ctx.now() });
      if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value as string);
      return facts;
    } catch (err) {
      this.ctx.log.warn({ contact: key, err: (err as Error).message }, "could not read the contact's tags; answering without them");
      return { tags: [] };
    }
  }
}
