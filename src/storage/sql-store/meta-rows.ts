import { z } from 'zod';
import { validateInput } from '../parse-input.js';
import type { Escalation, EscalationPatch, EscalationStatus, StoreMeta, StoredCursor } from '../records.js';
import { StoreError } from '../store-error.js';
import type { SqlSession } from './sql-session.js';

/** What `setMeta` takes: a new baseline date, values to merge. */
export const metaPatchSchema = z.object({ baselineAt: z.number().optional(), values: z.record(z.string(), z.unknown()).optional() });

/** The meta row (`bridge_meta`, one row of JSON), the cursors (`bridge_cursors`) and the escalations (`bridge_escalation_rows`). */
export const metaRowSchema = z.object({
  createdAt: z.number(),
  baselineAt: z.number().optional(),
  values: z.record(z.string(), z.unknown()),
  nextEscalationSeq: z.number().int(),
});
export type MetaRow = z.infer<typeof metaRowSchema>;

/** The meta row; `fresh` (a new database's, not written yet) when there is none. */
export async function readMeta(db: SqlSession, fresh: MetaRow | undefined): Promise<MetaRow> {
  const row = await db.get<{ body: string }>('SELECT body FROM bridge_meta WHERE id = 1');
  if (!row && fresh) return structuredClone(fresh);
  if (!row) throw new StoreError('corrupt', 'The meta row (bridge_meta) is missing.');
  return validateInput(metaRowSchema, JSON.parse(row.body), 'The meta row (bridge_meta)');
}

export async function writeMeta(db: SqlSession, meta: MetaRow): Promise<void> {
  await db.write('INSERT INTO bridge_meta (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body', [
    JSON.stringify(meta),
  ]);
}

export function publicMeta(meta: MetaRow): StoreMeta {
  const { createdAt, baselineAt, values } = meta;
  return baselineAt === undefined ? { createdAt, values } : { createdAt, baselineAt, values };
}

export async function readCursor(db: SqlSession, topic: string): Promise<unknown> {
  const row = await db.get<{ body: string }>('SELECT body FROM bridge_cursors WHERE topic = ?', [topic]);
  return row === undefined ? undefined : (JSON.parse(row.body) as StoredCursor).value;
}

export async function writeCursor(db: SqlSession, topic: string, cursor: StoredCursor): Promise<void> {
  await db.write('INSERT INTO bridge_cursors (topic, body) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET body = excluded.body', [
    topic,
    JSON.stringify(cursor),
  ]);
}

export async function readEscalation(db: SqlSession, id: string): Promise<Escalation | undefined> {
  const row = await db.get<{ body: string }>('SELECT body FROM bridge_escalation_rows WHERE id = ?', [id]);
  return row && (JSON.parse(row.body) as Escalation);
}

export async function writeEscalation(db: SqlSession, e: Escalation): Promise<void> {
  await db.write(
    'INSERT INTO bridge_escalation_rows (id, num, contact_key, status, updated_at, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, body = excluded.body',
    [e.id, Number(e.id.slice('esc-'.length)) || 0, e.contactKey, e.status, e.updatedAt, JSON.stringify(e)],
  );
}

/** In the order they were opened. */
export async function listEscalationRows(
  db: SqlSession,
  filter: { status?: EscalationStatus | EscalationStatus[]; contactKey?: string },
): Promise<Escalation[]> {
  const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
  const rows =
    filter.contactKey === undefined
      ? await db.all<{ body: string }>('SELECT body FROM bridge_escalation_rows ORDER BY num')
      : await db.all<{ body: string }>('SELECT body FROM bridge_escalation_rows WHERE contact_key = ? ORDER BY num', [filter.contactKey]);
  return rows.map((row) => JSON.parse(row.body) as Escalation).filter((e) => statuses === undefined || statuses.has(e.status));
}

/** Applies a patch to a stored escalation (its defined fields) and writes it; refuses an unknown id. */
export async function patchEscalation(db: SqlSession, id: string, patch: EscalationPatch, now: number): Promise<Escalation> {
  const current = await readEscalation(db, id);
  if (!current) throw new StoreError('invalid', `No escalation ${id}; nothing was changed.`);
  const next: Escalation = { ...current, updatedAt: now };
  for (const [field, value] of Object.entries(patch)) if (value !== undefined) Object.assign(next, { [field]: value });
  await writeEscalation(db, next);
  return next;
}
