import { countryCode, countryName } from './countries.js';
import type { Contact } from './model.js';
import { assertKeys, isPlainObject, readStringList } from './params.js';
import { invalidParameter } from './sim-error.js';

const UPDATE_KEYS = ['name', 'tags', 'customattributes', 'address', 'company', 'comments', 'telephone'];
const OPTION_KEYS = ['customattributes_edit_mode', 'tags_edit_mode'];
/** From this version tags change only when `tags` is in the updates; below it, no `tags` clears them. */
export const TAGS_KEEP_VERSION = 20210601;

export function applyTagEdit(current: readonly string[], given: readonly string[], mode: string): string[] {
  if (mode === 'add') return [...new Set([...current, ...given])];
  if (mode === 'delete') return current.filter((t) => !given.includes(t));
  return [...new Set(given)];
}

export function readEditMode(options: Record<string, unknown>, key: string, allowed: readonly string[]): string {
  const mode = options[key] ?? allowed[0];
  if (typeof mode !== 'string' || !allowed.includes(mode)) {
    throw invalidParameter(`options.${key} must be one of ${allowed.map((m) => `'${m}'`).join(', ')}`);
  }
  return mode;
}

function readCountry(address: unknown): Contact['country'] {
  if (!isPlainObject(address)) throw invalidParameter('updates.address must be an object');
  assertKeys(address, ['country'], 'updates.address');
  const country = address['country'];
  if (country === null) return null;
  if (!isPlainObject(country)) throw invalidParameter('updates.address.country must be an object with name or code');
  assertKeys(country, ['name', 'code'], 'updates.address.country');
  const { code, name } = country;
  if (code !== undefined && code !== null && code !== '') {
    const upper = typeof code === 'string' ? code.toUpperCase() : '';
    const known = countryName(upper);
    if (!known) throw invalidParameter(`Country code '${String(code)}' is not an ISO 3166-1 alpha-2 code`);
    return { code: upper, name: known };
  }
  if (typeof name !== 'string' || name.trim() === '') throw invalidParameter('updates.address.country needs a name or a code');
  const found = countryCode(name);
  if (!found) throw invalidParameter(`Country '${name}' is not recognised`);
  return { code: found, name: countryName(found) ?? name };
}

const text = (value: unknown, where: string): string => {
  if (typeof value !== 'string') throw invalidParameter(`${where} must be a string`);
  return value;
};

/** Applies a contact POST: validates everything first, then changes the contact (bad input changes nothing). */
export function updateContact(
  contact: Contact,
  updates: Record<string, unknown>,
  options: Record<string, unknown>,
  version: number,
  now: number,
): void {
  if ('socialprofiles' in updates) throw invalidParameter('updates.socialprofiles cannot be updated');
  assertKeys(updates, UPDATE_KEYS, 'updates');
  assertKeys(options, OPTION_KEYS, 'options');
  const attrMode = readEditMode(options, 'customattributes_edit_mode', ['update', 'overwrite', 'delete']);
  const tagMode = readEditMode(options, 'tags_edit_mode', ['update', 'add', 'delete']);
  const next: Contact = { ...contact };
  if ('name' in updates) next.name = text(updates['name'], 'updates.name');
  if ('company' in updates) next.company = text(updates['company'], 'updates.company');
  if ('comments' in updates) next.comments = text(updates['comments'], 'updates.comments');
  if ('telephone' in updates) next.telephone = updates['telephone'] === null ? null : text(updates['telephone'], 'updates.telephone');
  if ('address' in updates) next.country = readCountry(updates['address']);
  if ('tags' in updates) next.tags = applyTagEdit(contact.tags, readStringList(updates['tags'], 'updates.tags'), tagMode);
  else if (version < TAGS_KEEP_VERSION) next.tags = [];
  if ('customattributes' in updates) {
    const attrs = updates['customattributes'];
    if (attrMode === 'delete') {
      const keys = Array.isArray(attrs)
        ? readStringList(attrs, 'updates.customattributes')
        : isPlainObject(attrs)
          ? Object.keys(attrs)
          : null;
      if (!keys) throw invalidParameter('updates.customattributes must be an object (or a list of names to delete)');
      next.customattributes = Object.fromEntries(Object.entries(contact.customattributes).filter(([k]) => !keys.includes(k)));
    } else {
      if (!isPlainObject(attrs)) throw invalidParameter('updates.customattributes must be an object');
      next.customattributes = attrMode === 'overwrite' ? { ...attrs } : { ...contact.customattributes, ...attrs };
    }
  }
  next.updated = now;
  Object.assign(contact, next);
}
