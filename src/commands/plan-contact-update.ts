import type { ContactUpdateOptions } from '../engage/schemas/index.js';
import type { ContactChanges } from './command-types.js';
import type { ContactUpdatesSent } from './ports.js';

export interface ContactUpdateCall {
  readonly updates: ContactUpdatesSent;
  readonly options?: ContactUpdateOptions;
}

/**
 * One update carries one edit mode per list, so removals (tags `delete`, custom attributes `delete`)
 * go in a second call after everything else. Returns one or two calls, never an empty one.
 */
export function planContactUpdate(changes: ContactChanges): ContactUpdateCall[] {
  const first: ContactUpdatesSent = {};
  const firstOptions: ContactUpdateOptions = {};
  if (changes.company !== undefined) first.company = changes.company;
  if (changes.comments !== undefined) first.comments = changes.comments;
  // The code wins over the name at the service, and we resolved the name ourselves.
  if (changes.country !== undefined) first.address = { country: { code: changes.country.code } };
  if (changes.tags?.kind === 'replace') {
    first.tags = [...changes.tags.tags];
    firstOptions.tags_edit_mode = 'update';
  } else if (changes.tags?.kind === 'edit' && changes.tags.add.length > 0) {
    first.tags = [...changes.tags.add];
    firstOptions.tags_edit_mode = 'add';
  }
  if (Object.keys(changes.setAttributes).length > 0) {
    first.customattributes = { ...changes.setAttributes };
    firstOptions.customattributes_edit_mode = 'update';
  }

  const second: ContactUpdatesSent = {};
  const secondOptions: ContactUpdateOptions = {};
  if (changes.tags?.kind === 'edit' && changes.tags.remove.length > 0) {
    second.tags = [...changes.tags.remove];
    secondOptions.tags_edit_mode = 'delete';
  }
  if (changes.removeAttributes.length > 0) {
    second.customattributes = Object.fromEntries(changes.removeAttributes.map((name) => [name, null]));
    secondOptions.customattributes_edit_mode = 'delete';
  }

  const calls: ContactUpdateCall[] = [];
  for (const [updates, options] of [
    [first, firstOptions],
    [second, secondOptions],
  ] as const) {
    if (Object.keys(updates).length === 0) continue;
    calls.push(Object.keys(options).length > 0 ? { updates, options } : { updates });
  }
  return calls;
}
