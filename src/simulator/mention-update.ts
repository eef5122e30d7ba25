import { applyTagEdit, readEditMode } from './contact-update.js';
import type { MentionAction, MentionRecord, MentionStatus } from './model.js';
import { assertKeys, isPlainObject, readBoolean, readStringList } from './params.js';
import type { SimState } from './sim-state.js';
import { invalidParameter } from './sim-error.js';

/**
 * engage-api.md, Mention: "Supported updates include tags, status, assignment (with an optional comment), notes,
 * sentiment and hiding a mention on the service." Notes are `actions`, sentiment is `message.sentiment`, hiding is
 * `options.hide_on_service`. `priority` is a mention field but not listed as updatable, so it is refused.
 */
export const MENTION_UPDATE_KEYS = ['tags', 'status', 'message', 'assignment', 'actions'];
export const MENTION_OPTION_KEYS = ['tags_edit_mode', 'sendMail', 'hide_on_service', 'delete_on_service'];
export const SEND_MAIL_VERSION = 20160108;
const STATUSES: readonly MentionStatus[] = ['new', 'pending', 'done'];
const SENTIMENTS = ['positive', 'neutral', 'negative'];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidParameter(`${where} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** Notes (`[{ type: 'note', extra }]`) written by `userId`. */
export function readNotes(value: unknown, userId: string, now: number): MentionAction[] {
  if (!Array.isArray(value)) throw invalidParameter('updates.actions must be a list of notes');
  return value.map((a, i) => {
    if (!isPlainObject(a)) throw invalidParameter(`updates.actions[${i}] must be an object`);
    assertKeys(a, ['type', 'extra'], `updates.actions[${i}]`);
    if (a['type'] !== 'note') throw invalidParameter(`updates.actions[${i}].type must be 'note'`);
    if (typeof a['extra'] !== 'string') throw invalidParameter(`updates.actions[${i}].extra must be the note text`);
    return { type: 'note', extra: a['extra'], user_id: userId, date: { added: now }, metadata: { status: 'new' } };
  });
}

export function readAssignment(value: unknown, state: SimState): { userIds: string[]; comment: string } {
  if (!isPlainObject(value)) throw invalidParameter('updates.assignment must be an object');
  assertKeys(value, ['user_ids', 'comment'], 'updates.assignment');
  const userIds = value['user_ids'] === undefined ? [] : readStringList(value['user_ids'], 'updates.assignment.user_ids');
  for (const id of userIds) if (!state.users.has(id)) throw invalidParameter(`Unknown user '${id}' in updates.assignment.user_ids`);
  const comment = value['comment'] ?? '';
  if (typeof comment !== 'string') throw invalidParameter('updates.assignment.comment must be a string');
  return { userIds, comment };
}

export interface MentionUpdateInput {
  updates: Record<string, unknown>;
  options: Record<string, unknown>;
  version: number;
  userId: string;
  now: number;
}

/** Validates a mention POST completely, then applies it (bad input changes nothing). */
export function updateMention(m: MentionRecord, state: SimState, input: MentionUpdateInput): void {
  const { updates, options, version, userId, now } = input;
  assertKeys(updates, MENTION_UPDATE_KEYS, 'updates');
  assertKeys(options, MENTION_OPTION_KEYS, 'options');
  if ('sendMail' in options) {
    if (version < SEND_MAIL_VERSION) throw invalidParameter(`options.sendMail needs version ${SEND_MAIL_VERSION} or higher`);
    readBoolean(options['sendMail'], 'options.sendMail');
  }
  const hide = 'hide_on_service' in options ? readBoolean(options['hide_on_service'], 'options.hide_on_service') : m.hidden;
  if ('delete_on_service' in options) readBoolean(options['delete_on_service'], 'options.delete_on_service');
  const tagMode = readEditMode(options, 'tags_edit_mode', ['update', 'add', 'delete']);
  const next: MentionRecord = { ...m };
  if ('tags' in updates) next.tags = applyTagEdit(m.tags, readStringList(updates['tags'], 'updates.tags'), tagMode);
  if ('status' in updates) next.status = oneOf(updates['status'], STATUSES, 'updates.status');
  if ('message' in updates) {
    const message = updates['message'];
    if (!isPlainObject(message)) throw invalidParameter('updates.message must be an object');
    assertKeys(message, ['sentiment'], 'updates.message');
    next.sentiment = oneOf(message['sentiment'], SENTIMENTS, 'updates.message.sentiment');
  }
  if ('assignment' in updates) next.assignment = readAssignment(updates['assignment'], state);
  if ('actions' in updates) next.actions = [...m.actions, ...readNotes(updates['actions'], userId, now)];
  next.hidden = hide;
  next.updated = now;
  Object.assign(m, next);
}
