import { z } from 'zod';
import { ANY_TOPIC, mentionRef } from '../records.js';
import type { Effect, Escalation, StoreMeta, StoredCursor } from '../records.js';
import type { SqlValue } from './sql-driver.js';
import type { SqlSession } from './sql-session.js';

/** The rows the store and the move of older layouts (`legacy-rows.ts`) both write. */

/** What a status change writes (a done effect's payload becomes null). */
const STATUS_FIELDS = ['status', 'attempts', 'updatedAt', 'retryAt', 'lastError', 'payload', 'result'] as const;
/** An effect's fields, each a column of `bridge_effects` (snake_case): payload and result as JSON text. */
const FIELDS = ['key', 'contactKey', 'kind', 'seq', 'createdAt', ...STATUS_FIELDS] as const;
const column = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const COLUMNS = FIELDS.map((field) => [field, column(field)] as const);
const SELECT_EFFECTS = `SELECT ${COLUMNS.map(([, c]) => c).join(', ')} FROM bridge_effects`;
const UPSERT_EFFECT = `INSERT INTO bridge_effects (${COLUMNS.map(([, c]) => c).join(', ')}) VALUES (${FIELDS.map(() => '?').join(', ')}) ON CONFLICT (key) DO UPDATE SET ${STATUS_FIELDS.map((f) => `${column(f)} = excluded.${column(f)}`).join(', ')}`;
const UPDATE_STATUS = `UPDATE bridge_effects SET ${STATUS_FIELDS.map((f) => `${column(f)} = ?`).join(', ')} WHERE key = ?`;

function effectValues(e: Effect, fields: ReadonlyArray<(typeof FIELDS)[number]>): SqlValue[] {
  return fields.map((field) => {
    if (field === 'payload') return JSON.stringify(e.payload ?? null);
    if (field === 'result') return e.result === undefined ? null : JSON.stringify(e.result);
    return e[field] ?? null;
  });
}

/** The effects `where` picks (`WHERE key = ?`, …), as stored; a NULL column is a field left out. */
export async function readEffects(db: SqlSession, where: string, values: SqlValue[] = []): Promise<Effect[]> {
  return (await db.all<Record<string, SqlValue>>(`${SELECT_EFFECTS} ${where}`, values)).map((row) => {
    const effect: Record<string, unknown> = {};
    for (const [field, name] of COLUMNS) {
      const value = row[name] ?? null;
      if (value === null) continue;
      // PostgreSQL gives a bigint (seq) as text.
      effect[field] = field === 'payload' || field === 'result' ? JSON.parse(String(value)) : field === 'seq' ? Number(value) : value;
    }
    return effect as Effect;
  });
}

export async function readEffect(db: SqlSession, key: string): Promise<Effect | undefined> {
  return (await readEffects(db, 'WHERE key = ?', [key]))[0];
}

/** Writes a whole effect (new or changed); returns it. */
export async function writeEffect(db: SqlSession, e: Effect): Promise<Effect> {
  await db.write(UPSERT_EFFECT, effectValues(e, FIELDS));
  return e;
}

/** A status change: the status columns only; returns the effect. */
export async function updateEffectStatus(db: SqlSession, e: Effect): Promise<Effect> {
  await db.write(UPDATE_STATUS, [...effectValues(e, STATUS_FIELDS), e.key]);
  return e;
}

/** The meta row (`bridge_meta`, one row of JSON). */
export const metaRowSchema = z.object({
  createdAt: z.number(),
  baselineAt: z.number().optional(),
  values: z.record(z.string(), z.unknown()),
  nextEscalationSeq: z.number().int(),
});
export type MetaRow = z.infer<typeof metaRowSchema>;
/** What `setMeta` takes: a new baseline date, values to merge. */
export const metaPatchSchema = z.object({ baselineAt: z.number().optional(), values: z.record(z.string(), z.unknown()).optional() });

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
