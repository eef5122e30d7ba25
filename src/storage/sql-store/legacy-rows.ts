import { z } from 'zod';
import {
  ANY_TOPIC,
  conversationSchema,
  cursorSchema,
  effectSchema,
  escalationSchema,
  inboundMentionSchema,
  mentionRef,
} from '../records.js';
import type { InboundMention } from '../records.js';
import { StoreError } from '../store-error.js';
import { writeConversation } from './conversation-rows.js';
import { metaRowSchema, seenIn, writeCursor, writeEffect, writeEscalation, writeMeta } from './rows.js';
import type { SqlSession } from './sql-session.js';

/**
 * The older layouts, written straight into the tables of each kind: the journal store's data directory (release
 * 0.1, `sqlite/import-journal-dir.ts`) and the rows of schema steps 1 and 2 (`moveOlderRows`). Both are read as
 * change sets, the shape of a journal record: `[key, value]` pairs by kind, full values or null for gone, each value
 * checked against its record's schema.
 */
const changes = <S extends z.ZodType>(value: S) => z.array(z.tuple([z.string(), value.nullable()])).default([]);
const archivedMarkerSchema = z.object({ archivedKey: z.string().min(1), archivedAt: z.number() });
const changeSetSchema = z.object({
  meta: metaRowSchema.optional(),
  inbox: changes(inboundMentionSchema),
  cursors: changes(cursorSchema),
  escalations: changes(escalationSchema),
  conversations: changes(z.union([archivedMarkerSchema, conversationSchema])),
  seen: changes(z.number()),
  outbox: changes(effectSchema),
});

/** Refuses the whole move or import, naming `where` (a file and line, a row), never the content. */
export function legacyProblem(code: 'corrupt' | 'schema', where: string, what: string): StoreError {
  return new StoreError(code, `${where} ${what}. Nothing was changed: fix it, restore a backup, or move it away.`);
}

/** The JSON value of a line, undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJson(text: string, where: string): unknown {
  const data = jsonOf(text);
  if (data === undefined) throw legacyProblem('corrupt', where, 'is not valid JSON');
  return data;
}

function parseLegacy<S extends z.ZodType>(schema: S, data: unknown, where: string): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw legacyProblem('schema', where, `does not match the schema:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/** Writes one change set (a journal record: `{"n":7,"meta":…,"inbox":[[ref,mention|null]],"cursors":…,…}`). */
export async function applyChanges(db: SqlSession, data: unknown, where: string): Promise<void> {
  const record = parseLegacy(changeSetSchema, data, where);
  if (record.meta) await writeMeta(db, record.meta);
  for (const [ref, m] of record.inbox) {
    const insert = 'INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?) ON CONFLICT (ref) DO NOTHING';
    if (m) await db.write(insert, [mentionRef(m.topicId, m.id), m.key, JSON.stringify(m)]);
    // A record written before topic keys (schema version 1) names the mention by its id alone.
    else await db.write("DELETE FROM bridge_mentions WHERE ref = ? OR ref LIKE '%/' || ?", [ref, ref]);
  }
  for (const [topic, c] of record.cursors) await (c ? writeCursor(db, topic, c) : remove(db, 'bridge_cursors', 'topic', topic));
  for (const [id, e] of record.escalations) await (e ? writeEscalation(db, e) : remove(db, 'bridge_escalation_rows', 'id', id));
  for (const [key, c] of record.conversations) {
    // Written behind the rows at hand (`db.recent`): a live one writes them again, archived or gone they must go.
    db.recent.delete(key);
    await remove(db, 'bridge_transcript', 'key', key);
    if (c === null) await remove(db, 'bridge_conversations', 'key', key);
    else if ('archivedKey' in c) {
      await db.write(
        'INSERT INTO bridge_conversations (key, archived_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET owner = NULL, updated_at = NULL, body = NULL, dialog = NULL, archived_at = excluded.archived_at',
        [key, c.archivedAt],
      );
    } else await writeConversation(db, c, { rows: [] });
  }
  for (const [ref, at] of record.seen) await (at === null ? remove(db, 'bridge_seen', 'ref', ref) : putSeen(db, ref, at));
  for (const [key, e] of record.outbox) await (e ? writeEffect(db, e) : remove(db, 'bridge_effects', 'key', key));
}

function remove(db: SqlSession, table: string, column: string, key: string): Promise<number> {
  return db.write(`DELETE FROM ${table} WHERE ${column} = ?`, [key]);
}

function putSeen(db: SqlSession, ref: string, at: number): Promise<number> {
  return db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET at = excluded.at', [ref, at]);
}

/** A shard's lines (a file of the journal store, a row of `bridge_shards` or `bridge_outbox`), each one value of `kind`. */
export async function applyShard(db: SqlSession, kind: string, text: string, where: string): Promise<void> {
  for (const [index, line] of text.split('\n').entries()) {
    if (line.length === 0) continue;
    const at = `${where} line ${index + 1}`;
    const value = parseJson(line, at) as { archivedKey?: unknown; key?: unknown } | null;
    await applyChanges(db, { [kind]: [kind === 'seen' ? value : [value?.archivedKey ?? value?.key, value]] }, at);
  }
}

const coreSchema = z.object({
  meta: z.unknown().optional(),
  inbox: z.array(z.unknown()).default([]),
  cursors: z.record(z.string(), z.unknown()).default({}),
  escalations: z.record(z.string(), z.unknown()).default({}),
  conversations: z.array(z.looseObject({ key: z.string() })).default([]),
  seen: z.record(z.string(), z.unknown()).default({}),
  seenIds: z.array(z.string()).default([]),
  outbox: z.record(z.string(), z.unknown()).default({}),
  /** The last journal record this snapshot holds: the import replays those after it. */
  journalSeq: z.number().int().nonnegative().default(0),
});

/**
 * The core (`store.json`, the row `bridge_core`): meta, inbox, cursors and escalations, and in a file migrated from
 * an older one the rest inline. Version 0, the prototype's file (no `schemaVersion`), has conversations, seen ids as
 * a bare list and cursors as raw values: seen, and updated, at the import. Returns its version and `journalSeq`.
 */
export async function applyCore(
  db: SqlSession,
  text: string,
  where: string,
  now: number,
): Promise<{ version: number; journalSeq: number }> {
  const data = parseJson(text, where);
  const version =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? ((data as { schemaVersion?: unknown }).schemaVersion ?? 0) : -1;
  if (typeof version === 'number' && version > 2)
    throw legacyProblem('schema', where, `was written by a newer engage-bridge (schemaVersion ${version})`);
  if (version !== 0 && version !== 1 && version !== 2)
    throw legacyProblem('schema', where, 'is not a store (no valid schemaVersion at the top level)');
  const core = parseLegacy(coreSchema, data, where);
  await applyChanges(
    db,
    {
      meta: version === 0 ? { createdAt: now, values: {}, nextEscalationSeq: 1 } : (core.meta ?? null),
      inbox: core.inbox.map((m) => ['', m]),
      cursors: Object.entries(core.cursors).map(([topic, c]) => [topic, version === 0 ? { value: c, updatedAt: now } : c]),
      escalations: Object.entries(core.escalations),
      conversations: core.conversations.map((c) => [c.key, c]),
      seen: [...Object.entries(core.seen), ...core.seenIds.map((id) => [id, now])],
      outbox: Object.entries(core.outbox),
    },
    where,
  );
  return { version, journalSeq: core.journalSeq };
}

/**
 * Ends a move or an import. From version 1 (seen ids and effect keys by mention id alone; version 2 keys them by
 * topic and id): a seen id whose mention still waits in the inbox becomes `topicId/id` and its effects
 * (`${id}:step`) are renamed with it, so a decision taken before is found again; any other id counts as seen in
 * every topic (`*`/id), so nothing read before the upgrade is answered again. Then every waiting mention is seen
 * (an older layout could lose the seen shard alone).
 */
export async function finishLegacy(db: SqlSession, fromVersion: number, now: number): Promise<void> {
  const waiting = (await db.all<{ body: string }>('SELECT body FROM bridge_mentions')).map((row) => JSON.parse(row.body) as InboundMention);
  if (fromVersion < 2) {
    const byId = new Map(waiting.map((m) => [m.id, m]));
    for (const row of await db.all<{ ref: string; at: number }>('SELECT ref, at FROM bridge_seen')) {
      if (row.ref.includes('/')) continue;
      await remove(db, 'bridge_seen', 'ref', row.ref);
      await putSeen(db, mentionRef(byId.get(row.ref)?.topicId ?? ANY_TOPIC, row.ref), Number(row.at));
    }
    for (const { key, contact_key } of await db.all<{ key: string; contact_key: string }>('SELECT key, contact_key FROM bridge_effects')) {
      const cut = key.indexOf(':');
      const m = cut > 0 ? byId.get(key.slice(0, cut)) : undefined;
      if (m?.key === contact_key)
        await db.write('UPDATE bridge_effects SET key = ? WHERE key = ?', [mentionRef(m.topicId, m.id) + key.slice(cut), key]);
    }
  }
  for (const m of waiting) if (!(await seenIn(db, m.topicId, m.id))) await putSeen(db, mentionRef(m.topicId, m.id), now);
}

/**
 * Moves what schema steps 1 and 2 kept (step 1: the core row `bridge_core` and `bridge_shards`, the PostgreSQL
 * store of release 0.1; step 2: the core row and `bridge_outbox`) into the tables of each kind, in one
 * transaction, and deletes the old rows. Resolves true when it moved rows.
 */
export async function moveOlderRows(db: SqlSession, where: string, now: number): Promise<boolean> {
  const moved = await db.run(async () => {
    const core = (await db.get<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1'))?.body;
    const shards = await db.all<{ tbl: string; idx: number; body: string }>(
      "SELECT tbl, idx, body FROM bridge_shards WHERE tbl IN ('conversations', 'seen', 'outbox') ORDER BY tbl, idx",
    );
    const outbox = await db.all<{ body: string }>('SELECT body FROM bridge_outbox');
    if (core === undefined && shards.length === 0 && outbox.length === 0) return false;
    for (const row of shards) await applyShard(db, row.tbl, row.body, `${where} (bridge_shards ${row.tbl} ${row.idx})`);
    for (const row of outbox) await applyShard(db, 'outbox', row.body, `${where} (bridge_outbox)`);
    const version = core === undefined ? 2 : (await applyCore(db, core, `${where} (bridge_core)`, now)).version;
    await finishLegacy(db, version, now);
    for (const table of ['bridge_core', 'bridge_shards', 'bridge_outbox']) await db.write(`DELETE FROM ${table}`);
    return true;
  });
  await db.flush();
  return moved;
}
