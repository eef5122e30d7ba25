import { stateFromRows } from '../sql-state.js';
import type { ShardRow } from '../sql-state.js';
import { splitConversation } from '../sql-transcript.js';
import type { SqlSession } from './sql-session.js';
import { writeEffect } from './effect-rows.js';

/**
 * Moves the state an older layout left (schema step 1: `bridge_shards`; step 2: the core row `bridge_core` with
 * meta, inbox, cursors and escalations, and `bridge_outbox`) into the tables of step 3, in one transaction, and
 * deletes the old rows. Conversations, transcripts and seen ids of step 2 are rows already and stay where they are.
 * Resolves true when there was something to move.
 */
export async function moveCoreRows(db: SqlSession, where: string, now: number): Promise<boolean> {
  const moved = await db.run(async () => {
    const core = (await db.get<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1'))?.body;
    const shards = await db.all<ShardRow>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    const outbox = await db.all<{ body: string }>('SELECT body FROM bridge_outbox');
    if (core === undefined && shards.length === 0 && outbox.length === 0) return false;
    // A core row of version 1 names seen ids without their topic: they are keyed again (`keySeenByTopic`).
    const rekey = core !== undefined && (JSON.parse(core) as { schemaVersion?: number }).schemaVersion !== 2;
    const seen = rekey
      ? (await db.all<{ ref: string; at: number }>('SELECT ref, at FROM bridge_seen')).map((r) => ({ ref: r.ref, at: Number(r.at) }))
      : [];
    const { state } = stateFromRows({ core, shards, conversations: [], seen, outbox }, where, now);
    if (rekey) await db.write('DELETE FROM bridge_seen');
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
    for (const [ref, at] of state.seen.entries()) {
      await db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO NOTHING', [ref, at]);
    }
    // Conversations of the step-1 shards (step 2 keeps them as rows already).
    for (const [key, slot] of state.conversations.entries()) {
      await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
      if ('archivedAt' in slot) {
        await db.write(
          'INSERT INTO bridge_conversations (key, archived_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET owner = NULL, updated_at = NULL, body = NULL, archived_at = excluded.archived_at',
          [key, slot.archivedAt],
        );
      } else if ('json' in slot) {
        const { body, lines } = splitConversation(slot.json);
        await db.write(
          'INSERT INTO bridge_conversations (key, owner, updated_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, body = excluded.body, archived_at = NULL',
          [key, slot.owner, slot.updatedAt, body],
        );
        for (const [seq, line] of lines.entries()) {
          await db.write('INSERT INTO bridge_transcript (key, seq, at, body) VALUES (?, ?, ?, ?)', [key, seq, line.at, line.json]);
        }
      }
    }
    for (const table of ['bridge_core', 'bridge_shards', 'bridge_outbox']) await db.write(`DELETE FROM ${table}`);
    return true;
  });
  await db.flush();
  return moved;
}
