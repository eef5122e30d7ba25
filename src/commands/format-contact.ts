import type { Contact } from '../engage/schemas/index.js';
import type { ContactChanges } from './command-types.js';

const shown = (value: unknown): string => {
  if (value === undefined || value === null || value === '') return '(empty)';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

function countryOf(contact: Contact): string {
  const c = contact.address?.country;
  if (!c || (!c.name && !c.code)) return '(empty)';
  return c.name && c.code ? `${c.name} (${c.code})` : (c.name ?? c.code ?? '');
}

const tagsOf = (contact: Contact): string => (contact.tags?.length ? contact.tags.join(', ') : '(none)');

/** A contact as a manager reads it: who, where, and the fields the commands can change. */
export function formatContact(contact: Contact): string {
  const profiles = (contact.socialprofiles ?? []).map((p) => `${p.type}/${p.service_id}`).join(', ');
  const attributes = Object.entries(contact.customattributes ?? {})
    .map(([k, v]) => `${k}=${shown(v)}`)
    .join(', ');
  const lines = [
    `Contact ${contact.id}${contact.name ? ` — ${contact.name}` : ''}${profiles ? ` (${profiles})` : ''}`,
    `company: ${shown(contact.company)} · country: ${countryOf(contact)}${contact.telephone ? ` · telephone: ${contact.telephone}` : ''}`,
    `tags: ${tagsOf(contact)}`,
    `attributes: ${attributes || '(none)'}`,
    `comments: ${shown(contact.comments)}`,
  ];
  if (contact.permalink) lines.push(`link: ${contact.permalink}`);
  return lines.join('\n');
}

/** The fields a `set` touched, with the values now on the contact (what the service answered). */
export function changedFields(changes: ContactChanges, contact: Contact): Record<string, string> {
  const out: Record<string, string> = {};
  if (changes.company !== undefined) out['company'] = shown(contact.company);
  if (changes.comments !== undefined) out['comments'] = shown(contact.comments);
  if (changes.country !== undefined) out['country'] = countryOf(contact);
  if (changes.tags !== undefined) out['tags'] = tagsOf(contact);
  const attributes = contact.customattributes ?? {};
  for (const name of Object.keys(changes.setAttributes)) out[`attr.${name}`] = shown(attributes[name]);
  for (const name of changes.removeAttributes) {
    out[`attr.${name}`] = name in attributes ? `still ${shown(attributes[name])}` : '(removed)';
  }
  return out;
}

export function formatChangedFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} = ${v}`)
    .join('; ');
}
