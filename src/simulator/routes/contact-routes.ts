import { READ, WRITE, type ApiContext, type Route } from '../api-types.js';
import { updateContact } from '../contact-update.js';
import { isGone } from '../gone-contacts.js';
import type { Contact } from '../model.js';
import { offsetPage } from '../paging.js';
import { parseFilter } from '../filter-query.js';
import { presentContact } from '../present-contact.js';
import { invalidParameter, notFound } from '../sim-error.js';

const TOPIC_IDS_REQUIRED = new Set(['wechat', 'twilio', 'web', 'whatsapp', 'viber']);

function findContact(ctx: ApiContext): Contact {
  const { state } = ctx.rt;
  const { service, service_id: serviceId, contact_id: contactId } = ctx.path;
  let contact: Contact | undefined;
  if (service !== undefined && serviceId !== undefined) {
    if (service.toLowerCase() === 'instagram') {
      throw invalidParameter('Instagram contacts cannot be addressed by service and service_id; use the contact id');
    }
    contact = state.contactByService(service, serviceId);
  } else if (contactId !== undefined) {
    contact = state.contacts.get(contactId);
  }
  if (!contact || isGone(ctx.rt, contact.type, contact.serviceId)) throw notFound('Contact not found');
  return contact;
}

function checkTopicIds(ctx: ApiContext, contact: Contact): void {
  const ids = ctx.params.idList('topic_ids');
  for (const id of ids ?? []) {
    if (!ctx.rt.state.topics.has(id)) throw invalidParameter(`Unknown topic '${id}' in topic_ids`);
  }
  if (!ids && TOPIC_IDS_REQUIRED.has(contact.type)) {
    throw invalidParameter(`Parameter 'topic_ids' is required for contacts of type '${contact.type}'`);
  }
}

const getContact = (ctx: ApiContext): unknown => {
  const contact = findContact(ctx);
  checkTopicIds(ctx, contact);
  return presentContact(ctx.rt, contact, true);
};

const postContact = (ctx: ApiContext): unknown => {
  const contact = findContact(ctx);
  const updates = ctx.params.jsonObject('updates', true) ?? {};
  const options = ctx.params.jsonObject('options') ?? {};
  checkTopicIds(ctx, contact);
  updateContact(contact, updates, options, ctx.version, ctx.rt.now());
  return presentContact(ctx.rt, contact, true);
};

const deleteContact = (ctx: ApiContext): unknown => {
  const contact = findContact(ctx);
  // The identity (social profile) stays: the channel still knows the person; only details go.
  Object.assign(contact, {
    tags: [],
    customattributes: {},
    country: null,
    company: '',
    comments: '',
    telephone: null,
    updated: ctx.rt.now(),
  });
  return true;
};

const SORTS: Record<string, (a: Contact, b: Contact) => number> = {
  'dateadd:asc': (a, b) => a.added - b.added || Number(a.id) - Number(b.id),
  'dateadd:desc': (a, b) => b.added - a.added || Number(b.id) - Number(a.id),
  'dateupdate:asc': (a, b) => a.updated - b.updated || Number(a.id) - Number(b.id),
  'dateupdate:desc': (a, b) => b.updated - a.updated || Number(b.id) - Number(a.id),
};

const listContacts = (ctx: ApiContext): unknown => {
  const limit = ctx.params.int('limit', 0, 50, 20);
  const sortKey = ctx.params.str('sort') ?? 'dateadd:asc';
  const sort = SORTS[sortKey];
  if (!sort) throw invalidParameter(`Parameter 'sort' must be one of ${Object.keys(SORTS).join(', ')}`);
  const matches = parseFilter<Contact>(ctx.params.str('filter') ?? '', {
    contacttag: (v) => (c) => c.tags.includes(v),
    service: (v) => (c) => c.type === v.toLowerCase(),
  });
  const from = ctx.params.date('date_from') ?? 0;
  const to = ctx.params.date('date_to') ?? Number.MAX_SAFE_INTEGER;
  const items = [...ctx.rt.state.contacts.values()]
    .filter((c) => c.updated >= from && c.updated <= to && !isGone(ctx.rt, c.type, c.serviceId) && matches(c))
    .sort(sort);
  const page = offsetPage(ctx, items, limit);
  return { ...page, data: page.data.map((c) => presentContact(ctx.rt, c, false)) };
};

const one = {
  GET: { scopes: READ, params: ['topic_ids'], handler: getContact },
  POST: { scopes: WRITE, params: ['topic_ids', 'updates', 'options'], handler: postContact },
  DELETE: { scopes: WRITE, params: ['topic_ids'], handler: deleteContact },
};

export const contactRoutes: Route[] = [
  { pattern: '/:account/inbox/contact/:contact_id', ops: one },
  { pattern: '/:account/inbox/contact/:service/:service_id', ops: one },
  {
    pattern: '/:account/inbox/contacts',
    ops: { GET: { scopes: READ, params: ['limit', 'page_token', 'sort', 'filter', 'date_from', 'date_to'], handler: listContacts } },
  },
];
