import type { ContactChanges, TagChange } from './command-types.js';
import { findCountry, type Country } from './find-country.js';
import { parseTagEdits } from './parse-tag-edits.js';

export type ContactChangesResult = { ok: true; changes: ContactChanges } | { ok: false; error: string };

export const CONTACT_FIELDS_HELP =
  'company=TEXT, comments=TEXT, country=NAME|CODE, tags=a,b (replace) or tags=+a,-b (add/remove), ' +
  'attr.NAME=VALUE, attr.NAME= (remove the attribute)';

const ATTR_NAME = /^[A-Za-z0-9_][A-Za-z0-9_. -]*$/;

const REFUSED: Readonly<Record<string, string>> = {
  socialprofiles: 'social profiles cannot be changed through the API: change them in the Engage tool',
  notes: 'notes were replaced by comments: use comments=TEXT',
};

/** Reads the `k=v` tokens after `contact <contact> set` into the changes to make; nothing is called. */
export function parseContactChanges(tokens: readonly string[]): ContactChangesResult {
  if (tokens.length === 0) return { ok: false, error: 'say what to set, e.g. company="Acme NV"' };
  let company: string | undefined;
  let comments: string | undefined;
  let country: Country | undefined;
  let tags: TagChange | undefined;
  const setAttributes: Record<string, string> = {};
  const removeAttributes: string[] = [];
  const seen = new Set<string>();
  for (const token of tokens) {
    const eq = token.indexOf('=');
    if (eq <= 0) return { ok: false, error: `"${token}" is not KEY=VALUE` };
    const key = token.slice(0, eq).trim();
    const value = token.slice(eq + 1);
    const seenKey = key.toLowerCase();
    if (seen.has(seenKey)) return { ok: false, error: `${key} is given twice: say it once` };
    seen.add(seenKey);
    const refusal = REFUSED[seenKey];
    if (refusal !== undefined) return { ok: false, error: refusal };
    if (seenKey === 'company') company = value;
    else if (seenKey === 'comments') comments = value;
    else if (seenKey === 'country') {
      const found = value.trim() === '' ? undefined : findCountry(value);
      if (!found) {
        return { ok: false, error: `unknown country "${value}": use an English country name or a 2-letter ISO code` };
      }
      country = found;
    } else if (seenKey === 'tags') {
      const parsed = parseTagList(value);
      if (!parsed.ok) return parsed;
      tags = parsed.change;
    } else if (seenKey.startsWith('attr.')) {
      const name = key.slice('attr.'.length);
      if (!ATTR_NAME.test(name)) return { ok: false, error: `"${key}" is not a valid attribute name` };
      if (value === '') removeAttributes.push(name);
      else setAttributes[name] = value;
    } else {
      return { ok: false, error: `unknown field "${key}": the fields are ${CONTACT_FIELDS_HELP}` };
    }
  }
  const changes: ContactChanges = { setAttributes, removeAttributes };
  return {
    ok: true,
    changes: {
      ...changes,
      ...(company !== undefined && { company }),
      ...(comments !== undefined && { comments }),
      ...(country !== undefined && { country }),
      ...(tags !== undefined && { tags }),
    },
  };
}

type TagListResult = { ok: true; change: TagChange } | { ok: false; error: string };

/** `a,b` replaces every tag (`tags=` clears them); `+a,-b` adds and removes; a mix is ambiguous. */
function parseTagList(value: string): TagListResult {
  if (value.trim() === '') return { ok: true, change: { kind: 'replace', tags: [] } };
  const items = value.split(',').map((t) => t.trim());
  if (items.some((t) => t === '')) return { ok: false, error: `tags="${value}" has an empty tag` };
  const signed = items.filter((t) => t[0] === '+' || t[0] === '-');
  if (signed.length > 0 && signed.length < items.length) {
    return {
      ok: false,
      error: 'tags= mixes plain tags (which replace all tags) with +/- edits: use either tags=a,b or tags=+a,-b',
    };
  }
  const edits = parseTagEdits(items);
  if (!edits.ok) return edits;
  if (signed.length === 0) return { ok: true, change: { kind: 'replace', tags: edits.add } };
  return { ok: true, change: { kind: 'edit', add: edits.add, remove: edits.remove } };
}
