import type { Contact } from './model.js';
import { withExtras } from './present-extras.js';
import type { Runtime } from './runtime.js';

/**
 * A contact as the API shows it. A WhatsApp contact's telephone is always filled when one contact is
 * fetched (its WhatsApp id is the number); in lists only when an agent saved one.
 */
export function presentContact(rt: Runtime, c: Contact, single: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: c.id,
    name: c.name,
    socialprofiles: [{ type: c.type, service_id: c.serviceId }],
    tags: [...c.tags],
    customattributes: { ...c.customattributes },
    address: { country: c.country ? { ...c.country } : { name: null, code: null } },
    company: c.company,
    comments: c.comments,
    date: { added: c.added, updated: c.updated },
    permalink: `${rt.baseUrl()}/inbox/${rt.state.account.id}/contact/${c.id}/`,
  };
  const telephone = c.telephone ?? (single && c.type === 'whatsapp' ? c.serviceId : null);
  if (telephone !== null) item['telephone'] = telephone;
  return withExtras(rt, item);
}
