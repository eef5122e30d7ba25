import { createHmac } from 'node:crypto';
import { CHANNELS } from '../shared/channels.js';

/** A phone number as written in ids and texts: `+` and 7 to 15 digits. */
const PHONE = /\+\d{7,15}\b/g;
/** A contact key, `channel/id`: the id goes up to a quote, space, comma, colon, bracket or the next slash. */
const CONTACT_KEY = new RegExp(`\\b(${CHANNELS.join('|')})/([^"'\\s,;:)\\]}/\\\\]+)`, 'g');

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
      p = `c-${createHmac('sha256', key).update(id).digest('hex').slice(0, 10)}`;
      if (cache.size > 10_000) cache.clear();
      cache.set(id, p);
    }
    return p;
  };
  return (text) =>
    text
      .replace(CONTACT_KEY, (_m, channel: string, id: string) => `${channel}/${id.startsWith('c-') ? id : of(id)}`)
      .replace(PHONE, (m) => of(m));
}
