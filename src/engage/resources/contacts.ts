import { z } from 'zod';
import {
  CONTACT_TYPES_NEEDING_TOPIC_IDS,
  contactSchema,
  contactUpdateOptionsSchema,
  type Contact,
  type ContactUpdateOptions,
} from '../schemas/contact.js';
import { pagedListSchema, type PagedList } from '../schemas/paged-list.js';
import { iteratePages } from '../transport/iterate-pages.js';
import { checkId, checkInput, checkLimit, refuse, type CallSite } from './client-rules.js';
import { applyCountryRule, type CountryUpdate } from './country-rule.js';
import { commaList, isNonEmptyObject, readOp, writeOp, type ResourceContext } from './resource-context.js';

const BY_ID = '/{account_id}/inbox/contact/{contact_id}';
const BY_SERVICE = '/{account_id}/inbox/contact/{service}/{service_id}';
const LIST = '/{account_id}/inbox/contacts';

/** A contact by its id, or by service name plus the id on that service. */
export type ContactRef = { id: string | number } | { service: string; serviceId: string | number };

export interface ContactUpdates {
  name?: string;
  tags?: string[];
  customattributes?: Record<string, unknown>;
  address?: { country?: CountryUpdate };
  company?: string | null;
  comments?: string | null;
  telephone?: string | null;
  [key: string]: unknown;
}

export interface ContactListQuery {
  filter?: string;
  sort?: string;
  limit?: number;
  pageToken?: string;
}

type TopicIds = readonly (string | number)[];

const contactPageSchema = pagedListSchema(contactSchema);

export function contactsResource(ctx: ResourceContext) {
  return {
    get: async (ref: ContactRef, opts: { topicIds?: TopicIds } = {}): Promise<Contact> => {
      const site = { method: 'GET', template: templateOf(ref) };
      const path = addressOf(site, ref, opts.topicIds, true);
      return ctx.executor.json(readOp(site.template, path, { topic_ids: commaList(opts.topicIds) }), contactSchema);
    },
    update: async (
      ref: ContactRef,
      updates: ContactUpdates,
      opts: { options?: ContactUpdateOptions; topicIds?: TopicIds } = {},
    ): Promise<Contact> => {
      const site = { method: 'POST', template: templateOf(ref) };
      const path = addressOf(site, ref, opts.topicIds, true);
      const body = checkUpdates(site, updates, ctx.version);
      const options = opts.options === undefined ? undefined : checkInput(site, contactUpdateOptionsSchema, opts.options, 'options');
      const params = { updates: body, options, topic_ids: commaList(opts.topicIds) };
      return ctx.executor.json(writeOp('POST', site.template, true, path, params), contactSchema);
    },
    /** Deletes the contact's details; resolves to what the service answered. */
    delete: async (ref: ContactRef): Promise<boolean> => {
      const site = { method: 'DELETE', template: templateOf(ref) };
      const path = addressOf(site, ref, undefined, false);
      return ctx.executor.json(writeOp('DELETE', site.template, false, path), z.boolean());
    },
    list: async (query: ContactListQuery = {}): Promise<PagedList<Contact>> => ctx.executor.json(listOp(query), contactPageSchema),
    listPages: (query: ContactListQuery = {}): AsyncGenerator<PagedList<Contact>, void, undefined> =>
      iteratePages(ctx.executor, () => listOp(query), contactPageSchema, ctx.maxPages),
  };
}

function listOp(query: ContactListQuery) {
  const limit = checkLimit({ method: 'GET', template: LIST }, query.limit, 50);
  return readOp(LIST, {}, { filter: query.filter, sort: query.sort, limit, page_token: query.pageToken });
}

function templateOf(ref: ContactRef): string {
  return 'id' in ref ? BY_ID : BY_SERVICE;
}

/** The brief's addressing rules: no Instagram by service; chat channels need `topic_ids`. */
function addressOf(site: CallSite, ref: ContactRef, topicIds: TopicIds | undefined, needsTopics: boolean): Record<string, string> {
  if ('id' in ref) return { contact_id: checkId(site, 'id', ref.id) };
  const service = ref.service.trim().toLowerCase();
  if (service === '') throw refuse(site, 'service must be a service name such as "whatsapp"');
  if (service === 'instagram') throw refuse(site, 'Instagram contacts cannot be addressed by service and service id: use the contact id');
  if (needsTopics && CONTACT_TYPES_NEEDING_TOPIC_IDS.includes(service) && (topicIds === undefined || topicIds.length === 0)) {
    throw refuse(site, `topic_ids is required for ${service} contacts`);
  }
  return { service, service_id: checkId(site, 'serviceId', ref.serviceId) };
}

/** Properties the description lists as removed from contacts, with what replaces them where it says. */
const REMOVED_PROPERTIES: Readonly<Record<string, string>> = {
  gender: 'gender was removed from contacts',
  url: 'url was removed from contacts',
  notes: 'notes was removed from contacts: use comments',
};
const REMOVED_ADDRESS_PROPERTIES = ['street', 'number', 'zip'] as const;

/** From this version on, a contact update leaves tags alone unless it names them. */
const TAGS_KEPT_FROM_VERSION = '20210601';

function checkUpdates(site: CallSite, updates: ContactUpdates, version: string): Record<string, unknown> {
  if (!isNonEmptyObject(updates)) throw refuse(site, 'updates must name at least one contact property to change');
  if ('socialprofiles' in updates) throw refuse(site, 'socialprofiles cannot be updated');
  for (const [key, why] of Object.entries(REMOVED_PROPERTIES)) if (key in updates) throw refuse(site, why);
  const address = updates['address'];
  if (address !== undefined && address !== null && typeof address === 'object') {
    for (const key of REMOVED_ADDRESS_PROPERTIES) if (key in address) throw refuse(site, `address.${key} was removed from contacts`);
  }
  // Version strings are dates (YYYYMMDD, checked when the client is made), so they compare as text.
  if (version < TAGS_KEPT_FROM_VERSION && !('tags' in updates)) {
    throw refuse(
      site,
      `under API version ${version} a contact update without tags clears the contact's tags: ` +
        `set ENGAGE_API_VERSION to ${TAGS_KEPT_FROM_VERSION} or later, or send the tags to keep`,
    );
  }
  const country = updates.address?.country;
  if (country === undefined) return updates;
  return { ...updates, address: { ...updates.address, country: applyCountryRule(site, country) } };
}
