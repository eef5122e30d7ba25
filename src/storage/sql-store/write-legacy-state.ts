import type { HotState } from '../hot-state.js';
import type { AuditEntry } from '../records.js';
import { splitConversation } from '../sql-transcript.js';
import { writeEffect } from './effect-rows.js';
import type { SqlSession } from './sql-session.js';

/**
 * Writes a state an older layout kept (the journal store's files, the core row and shards of schema steps 1 and 2)
 * into the tables of each kind, inside a task of `db`: the import of a journal directory and the move of older rows
 * at open both end here. Rows already there are left as they are (`ON CONFLICT DO NOTHING`), except conversations,
 * written whole with their transcript.
 */
export async function writeLegacyState(
  db: SqlSession,
  state: HotState,
  cold: { audit?: readonly AuditEntry[]; archive?: ReadonlyArray<{ key: string; json: string }> } = {},
): Promise<void> {
  const { createdAt, baselineAt, values, nextEscalationSeq } = state.meta;
  await db.write('INSERT INTO bridge_meta (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body', [
    JSON.stringify({ createdAt, baselineAt, values, nextEscalationSeq }),
  ]);
  for (const [topic, cursor] of state.cursors) {
    await db.write('INSERT INTO bridge_cursors (topic, body) VALUES (?, ?) ON CONFLICT (topic) DO NOTHING', [
      topic,
      JSON.stringify(cursor),
    ]);
  }
  for (const m of state.inbox) {
    await db.write('INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?) ON CONFLICT (ref) DO NOTHING', [
      `${m.topicId}/${m.id}`,
      m.key,
      JSON.stringify(m),
    ]);
  }
  for (const e of state.escalations.values()) {
    await db.write(
      'INSERT INTO bridge_escalation_rows (id, num, contact_key, status, updated_at, body) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      [e.id, Number(e.id.slice('esc-'.length)) || 0, e.contactKey, e.status, e.updatedAt, JSON.stringify(e)],
    );
  }
  for (const effect of state.outbox.values()) await writeEffect(db, effect);
  for (const [ref, at] of state.seen) {
    await db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO NOTHING', [ref, at]);
  }
  for (const [key, slot] of state.conversations) {
    await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
    if ('archivedAt' in slot) {
      await db.write(
        'INSERT INTO bridge_conversations (key, archived_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET owner = NULL, updated_at = NULL, body = NULL, archived_at = excluded.archived_at',
        [key, slot.archivedAt],
      );
      continue;
    }
    const { body, lines } = splitConversation(slot.json);
    await db.write(
      'INSERT INTO bridge_conversations (key, owner, updated_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, body = excluded.body, archived_at = NULL',
      [key, slot.owner, slot.updatedAt, body],
    );
    for (const [seq, line] of lines.entries()) {
      await db.write('INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)', [key, seq, line.at, line.json]);
    }
  }
  for (const entry of cold.audit ?? []) await db.write('INSERT INTO bridge_audit (body) VALUES (?)', [JSON.stringify(entry)]);
  for (const copy of cold.archive ?? []) await db.write('INSERT INTO bridge_archive (key, body) VALUES (?, ?)', [copy.key, copy.json]);
}
