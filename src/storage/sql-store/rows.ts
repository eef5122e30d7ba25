import { z } from 'zod';
import { ANY_TOPIC, mentionRef } from '../records.js';
import type {
  Effect,
  EffectInput,
  Escalation,
  EscalationPatch,
  EscalationStatus,
  InboundMention,
  StoreMeta,
  StoredCursor,
} from '../records.js';
import { StoreError } from '../store-error.js';
import type { SqlSession } from './sql-session.js';

/** The rows the store and the move of older layouts (`legacy-rows.ts`) both write. */

/** An effect's row of `bridge_effects`: its status fields are columns, its payload and result JSON text. */
interface EffectRow {
  key: string;
  contact_key: string;
  kind: string;
  seq: number | string;
  status: Effect['status'];
  attempts: number;
  created_at: number;
  updated_at: number;
  retry_at: number | null;
  last_error: string | null;
  payload: string;
  result: string | null;
}

const COLUMNS = 'key, contact_key, kind, seq, status, attempts, created_at, updated_at, retry_at, last_error, payload, result';

/** The effects `where` picks (`WHERE key = ?`, …), as stored. */
export async function readEffects(db: SqlSession, where: string, values: Array<string | number> = []): Promise<Effect[]> {
  return (await db.all<EffectRow>(`SELECT ${COLUMNS} FROM bridge_effects ${where}`, values)).map((row) => {
    const effect: Effect = {
      key: row.key,
      kind: row.kind,
      contactKey: row.contact_key,
      payload: JSON.parse(row.payload),
      seq: Number(row.seq),
      status: row.status,
      attempts: Number(row.attempts),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    if (row.retry_at !== null) effect.retryAt = Number(row.retry_at);
    if (row.last_error !== null) effect.lastError = row.last_error;
    if (row.result !== null) effect.result = JSON.parse(row.result);
    return effect;
  });
}

export async function readEffect(db: SqlSession, key: string): Promise<Effect | undefined> {
  return (await readEffects(db, 'WHERE key = ?', [key]))[0];
}

export async function requireEffect(db: SqlSession, key: string): Promise<Effect> {
  const effect = await readEffect(db, key);
  if (!effect) throw new StoreError('invalid', `No effect with key ${key} in the outbox; nothing was changed.`);
  return effect;
}

/** The effect done: once done only the key matters (it keeps the effect from running twice), the payload goes. */
export function completedEffect(effect: Effect, result: unknown, now: number): Effect {
  const done: Effect = { ...effect, payload: null, status: 'done', attempts: effect.attempts + 1, updatedAt: now };
  delete done.retryAt;
  if (result !== undefined) done.result = result;
  return done;
}

/** The effect failed: pending again at `retryAt`, or given up without it. */
export function failedEffect(effect: Effect, error: string, retryAt: number | undefined, now: number): Effect {
  const failed: Effect = {
    ...effect,
    status: retryAt === undefined ? 'failed' : 'pending',
    attempts: effect.attempts + 1,
    lastError: error,
    updatedAt: now,
  };
  if (retryAt === undefined) delete failed.retryAt;
  else failed.retryAt = retryAt;
  return failed;
}

/** A status change: the status columns only (a done effect's payload becomes null); returns the effect. */
export async function updateEffectStatus(db: SqlSession, e: Effect): Promise<Effect> {
  const payload = e.status === 'done' ? ", payload = 'null'" : '';
  await db.write(
    `UPDATE bridge_effects SET status = ?, attempts = ?, updated_at = ?, retry_at = ?, last_error = ?, result = ?${payload} WHERE key = ?`,
    [
      e.status,
      e.attempts,
      e.updatedAt,
      e.retryAt ?? null,
      e.lastError ?? null,
      e.result === undefined ? null : JSON.stringify(e.result),
      e.key,
    ],
  );
  return e;
}

/** Writes a whole effect (new or changed); returns it. */
export async function writeEffect(db: SqlSession, e: Effect): Promise<Effect> {
  await db.write(
    `INSERT INTO bridge_effects (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET status = excluded.status, attempts = excluded.attempts, updated_at = excluded.updated_at, retry_at = excluded.retry_at, last_error = excluded.last_error, payload = excluded.payload, result = excluded.result`,
    [
      e.key,
      e.contactKey,
      e.kind,
      e.seq,
      e.status,
      e.attempts,
      e.createdAt,
      e.updatedAt,
      e.retryAt ?? null,
      e.lastError ?? null,
      JSON.stringify(e.payload ?? null),
      e.result === undefined ? null : JSON.stringify(e.result),
    ],
  );
  return e;
}

/** A new effect, `done` for a mark that needs no performing (a finished effect keeps its key, status and result; its payload is null). */
export function newEffect(input: EffectInput, seq: number, now: number, status: 'pending' | 'done'): Effect {
  return { ...input, payload: status === 'done' ? null : input.payload, seq, status, attempts: 0, createdAt: now, updatedAt: now };
}

/** The meta row (`bridge_meta`, one row of JSON). */
export const metaRowSchema = z.object({
  createdAt: z.number(),
  baselineAt: z.number().optional(),
  values: z.record(z.string(), z.unknown()),
  nextEscalationSeq: z.number().int(),
});
/** What `setMeta` takes: a new baseline date, values to merge. */
export const metaPatchSchema = z.object({ baselineAt: z.number().optional(), values: z.record(z.string(), z.unknown()).optional() });
export type MetaRow = z.infer<typeof metaRowSchema>;

export function publicMeta({ createdAt, baselineAt, values }: MetaRow): StoreMeta {
  return baselineAt === undefined ? { createdAt, values } : { createdAt, baselineAt, values };
}

export async function writeMeta(db: SqlSession, meta: MetaRow): Promise<void> {
  await db.write('INSERT INTO bridge_meta (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body', [
    JSON.stringify(meta),
  ]);
}

export async function writeCursor(db: SqlSession, topic: string, cursor: StoredCursor): Promise<void> {
  await db.write('INSERT INTO bridge_cursors (topic, body) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET body = excluded.body', [
    topic,
    JSON.stringify(cursor),
  ]);
}

export async function writeEscalation(db: SqlSession, e: Escalation): Promise<void> {
  await db.write(
    'INSERT INTO bridge_escalation_rows (id, num, contact_key, status, updated_at, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, body = excluded.body',
    [e.id, Number(e.id.slice('esc-'.length)) || 0, e.contactKey, e.status, e.updatedAt, JSON.stringify(e)],
  );
}

/** Whether the mention `topicId`/`id` was recorded (or, before the upgrade to topic keys, its id in any topic). */
export async function seenIn(db: SqlSession, topicId: string, id: string): Promise<boolean> {
  const refs = [mentionRef(topicId, id), mentionRef(ANY_TOPIC, id)];
  return (await db.all('SELECT 1 AS one FROM bridge_seen WHERE ref = ? OR ref = ?', refs)).length > 0;
}

/** In `addedAt` then id order; service ids are numeric strings, so `9001` comes before `10000`. */
export async function pendingMentions(db: SqlSession, key: string | undefined): Promise<InboundMention[]> {
  const rows =
    key === undefined
      ? await db.all<{ body: string }>('SELECT body FROM bridge_mentions')
      : await db.all<{ body: string }>('SELECT body FROM bridge_mentions WHERE key = ?', [key]);
  const numeric = /^\d+$/;
  const byId = (a: string, b: string) => (numeric.test(a) && numeric.test(b) && a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);
  return rows.map((row) => JSON.parse(row.body) as InboundMention).sort((a, b) => a.addedAt - b.addedAt || byId(a.id, b.id));
}

export async function readEscalations(db: SqlSession, where: string, values: string[] = []): Promise<Escalation[]> {
  const rows = await db.all<{ body: string }>(`SELECT body FROM bridge_escalation_rows ${where}`, values);
  return rows.map((row) => JSON.parse(row.body) as Escalation);
}

/** In the order they were opened. */
export async function listEscalationRows(
  db: SqlSession,
  filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string },
): Promise<Escalation[]> {
  const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
  const { contactKey } = filter;
  const all =
    contactKey === undefined
      ? await readEscalations(db, 'ORDER BY num')
      : await readEscalations(db, 'WHERE contact_key = ? ORDER BY num', [contactKey]);
  return all.filter((e) => statuses === undefined || statuses.has(e.status));
}

/** Applies the patch's defined fields to a stored escalation; refuses an unknown id. */
export async function patchEscalation(db: SqlSession, id: string, patch: EscalationPatch, now: number): Promise<Escalation> {
  const current = (await readEscalations(db, 'WHERE id = ?', [id]))[0];
  if (!current) throw new StoreError('invalid', `No escalation ${id}; nothing was changed.`);
  const next: Escalation = { ...current, updatedAt: now };
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) Object.assign(next, { [field]: value });
  await writeEscalation(db, next);
  return next;
}
