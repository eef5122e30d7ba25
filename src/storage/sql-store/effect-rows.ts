import type { Effect, EffectInput } from '../records.js';
import { StoreError } from '../store-error.js';
import type { SqlSession } from './sql-session.js';

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

export function effectOfRow(row: EffectRow): Effect {
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
}

export async function readEffect(db: SqlSession, key: string): Promise<Effect | undefined> {
  const row = await db.get<EffectRow>(`SELECT ${COLUMNS} FROM bridge_effects WHERE key = ?`, [key]);
  return row && effectOfRow(row);
}

export async function requireEffect(db: SqlSession, key: string): Promise<Effect> {
  const effect = await readEffect(db, key);
  if (!effect) throw new StoreError('invalid', `No effect with key ${key} in the outbox; nothing was changed.`);
  return effect;
}

export async function pendingEffectRows(db: SqlSession, contactKey: string | undefined): Promise<Effect[]> {
  const rows =
    contactKey === undefined
      ? await db.all<EffectRow>(`SELECT ${COLUMNS} FROM bridge_effects WHERE status = 'pending' ORDER BY seq`)
      : await db.all<EffectRow>(`SELECT ${COLUMNS} FROM bridge_effects WHERE contact_key = ? AND status = 'pending' ORDER BY seq`, [
          contactKey,
        ]);
  return rows.map(effectOfRow);
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
  const status = retryAt === undefined ? 'failed' : 'pending';
  const failed: Effect = { ...effect, status, attempts: effect.attempts + 1, lastError: error, updatedAt: now };
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

/** Adds the effect unless its key is known (then returns the stored one); `done` for a mark that needs no performing. */
export async function addEffect(
  db: SqlSession,
  input: EffectInput,
  seq: () => number,
  now: number,
  status: 'pending' | 'done',
): Promise<{ effect: Effect; created: boolean }> {
  const existing = await readEffect(db, input.key);
  if (existing) return { effect: existing, created: false };
  // A finished effect keeps its key, status and result; its payload is null.
  const effect: Effect = {
    ...input,
    payload: status === 'done' ? null : input.payload,
    seq: seq(),
    status,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await writeEffect(db, effect);
  return { effect, created: true };
}
