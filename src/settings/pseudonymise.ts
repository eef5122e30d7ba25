import { createHash, createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { CHANNELS } from '../shared/channels.js';

/** A phone number as written in ids and texts: `+` and 7 to 15 digits, maybe grouped by spaces, dots or dashes. */
const PHONE = /\+\d(?:[ .-]?\d){6,14}\b/g;
/**
 * A contact key, `channel/id` (paths, effect keys) or `channel:id` (the store's key): the id goes up to a quote, space,
 * comma, colon, bracket or the next slash. A WhatsApp or SMS id is often the bare phone number, without `+`.
 */
const CONTACT_KEY = new RegExp(`\\b(${CHANNELS.join('|')})([/:])([^"'\\s,;:)\\]}/\\\\]+)`, 'g');
/** A JSON field that holds a phone or a service's id for a contact, when its value is digits (a bare phone number). */
const PHONE_FIELD = /"(serviceId|service_id|phone|msisdn|wa_id|from|to)":"(\+?\d[\d .-]{5,20})"/g;

/** One id's pseudonym under `key`: `c-` and 10 hex digits of its HMAC-SHA256. */
function pseudonymOf(key: string, id: string): string {
  return `c-${createHmac('sha256', key).update(id).digest('hex').slice(0, 10)}`;
}

/**
 * `service/id` to `service/c-…`, the pseudonym log lines show for that contact (whatever the service is called):
 * how the audit names a forgotten contact.
 */
export function contactPseudonym(key: string): (contact: string) => string {
  return (contact) => {
    const at = contact.indexOf('/');
    return `${contact.slice(0, at + 1)}${pseudonymOf(key, contact.slice(at + 1))}`;
  };
}

/**
 * Replaces contact ids and phone numbers in a text by keyed-hash pseudonyms (`c-` and 10 hex digits): the same id
 * gives the same pseudonym under the same key, so a deployment's lines can still be followed, but the id cannot be
 * read back without the key.
 */
export function pseudonymiser(key: string): (text: string) => string {
  const cache = new Map<string, string>();
  const of = (id: string): string => {
    let p = cache.get(id);
    if (p === undefined) {
      p = pseudonymOf(key, id);
      if (cache.size > 10_000) cache.clear();
      cache.set(id, p);
    }
    return p;
  };
  return (text) =>
    text
      .replace(CONTACT_KEY, (_m, channel: string, sep: string, id: string) => `${channel}${sep}${id.startsWith('c-') ? id : of(id)}`)
      .replace(PHONE_FIELD, (_m, field: string, value: string) => `"${field}":"${of(value)}"`)
      .replace(PHONE, (m) => of(m.replace(/[ .-]/g, '')));
}

/**
 * The key of the pseudonyms (log lines, and the audit entry of a forgotten contact): derived from the deployment's
 * secrets and account, so it is the same on every instance and restart of one deployment, differs between
 * deployments, and is unknown to whoever reads only logs.
 */
export function pseudonymKeyOf(config: Config): string {
  const parts = ['engage-bridge log pseudonyms', config.engage.baseUrl, config.engage.accountId ?? '', ...[...config.secrets].sort()];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}
