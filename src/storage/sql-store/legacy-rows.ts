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
import { StoreError, describeJsonFailure } from '../store-error.js';
import { writeConversation } from './conversation-rows.js';
import { metaRowSchema, seenIn, writeCursor, writeEffect, writeEscalation, writeMeta } from './rows.js';
import type { SqlSession } from './sql-session.js';

/**
 * The older layouts, written straight into the tables of each kind: the journal store's data directory (release
 * 0.1, `sqlite/import-journal-dir.ts`) and the rows of schema steps 1 and 2 (`moveOlderRows`). Both are read as
 * change sets, the shape of a journal record: `[key, value]` pairs by kind, full values or null for gone.
 */
const pairs = z.array(z.tuple([z.string(), z.unknown()])).optional();
const recordSchema = z.object({
  meta: z.unknown().optional(),
  inbox: pairs,
  cursors: pairs,
  escalations: pairs,
  conversations: pairs,
  seen: pairs,
  outbox: pairs,
});
export type LegacyRecord = z.infer<typeof recordSchema>;
/** A journal record: `{"n":7,"meta":…,"inbox":[[ref,mention|null]],"cursors":…,…}`, numbered in order. */
export const journalRecordSchema = recordSchema.extend({ n: z.number().int().positive() });

const LEAVE_IT = 'Nothing was changed: fix it, restore a backup, or move it away.';

export function legacyProblem(code: 'corrupt' | 'schema', where: string, what: string): StoreError {
  return new StoreError(code, `${where} ${what}. ${LEAVE_IT}`);
}

/** Parses one JSON text of an older layout; the refusal names `where`, never the content. */
export function parseLegacyJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw legacyProblem('corrupt', where, `is not valid JSON (${describeJsonFailure(error)})`);
  }
}

export function parseLegacy<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw legacyProblem('schema', where, `does not match the schema:\n${z.prettifyError(result.error)}`);
  return result.data;
}

const archivedMarkerSchema = z.object({ archivedKey: z.string().min(1), archivedAt: z.number() });
const seenLineSchema = z.tuple([z.string(), z.number()]);

/** Writes one change set; a value that does not match its schema refuses the whole move or import. */
export async function applyLegacyRecord(db: SqlSession, record: LegacyRecord, where: string): Promise<void> {
  if (record.meta !== undefined) await writeMeta(db, parseLegacy(metaRowSchema, record.meta, `${where} (meta)`));
  for (const [ref, value] of record.inbox ?? []) {
    if (value !== null) {
      const m = parseLegacy(inboundMentionSchema, value, `${where} (inbox)`);
      await db.write('INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?) ON CONFLICT (ref) DO NOTHING', [
        mentionRef(m.topicId, m.id),
        m.key,
        JSON.stringify(m),
      ]);
    } else if (ref.includes('/')) {
      await db.write('DELETE FROM bridge_mentions WHERE ref = ?', [ref]);
    } else {
      // A record written before topic keys (schema version 1) names the mention by its id alone.
      for (const row of await db.all<{ ref: string; body: string }>('SELECT ref, body FROM bridge_mentions')) {
        if ((JSON.parse(row.body) as InboundMention).id === ref) await db.write('DELETE FROM bridge_mentions WHERE ref = ?', [row.ref]);
      }
    }
  }
  for (const [topic, value] of record.cursors ?? []) {
    if (value === null) await db.write('DELETE FROM bridge_cursors WHERE topic = ?', [topic]);
    else await writeCursor(db, topic, parseLegacy(cursorSchema, value, `${where} (cursors)`));
  }
  for (const [id, value] of record.escalations ?? []) {
    if (value === null) await db.write('DELETE FROM bridge_escalation_rows WHERE id = ?', [id]);
    else await writeEscalation(db, parseLegacy(escalationSchema, value, `${where} (escalations)`));
  }
  for (const [key, value] of record.conversations ?? []) {
    await db.write('DELETE FROM bridge_transcript WHERE key = ?', [key]);
    if (value === null) {
      await db.write('DELETE FROM bridge_conversations WHERE key = ?', [key]);
    } else if (typeof value === 'object' && 'archivedKey' in value) {
      const marker = parseLegacy(archivedMarkerSchema, value, `${where} (conversations)`);
      await db.write(
        'INSERT INTO bridge_conversations (key, archived_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET owner = NULL, updated_at = NULL, body = NULL, dialog = NULL, archived_at = excluded.archived_at',
        [key, marker.archivedAt],
      );
    } else {
      await writeConversation(db, parseLegacy(conversationSchema, value, `${where} (conversations)`), { rows: [] });
    }
  }
  for (const [ref, at] of record.seen ?? []) {
    if (at === null) await db.write('DELETE FROM bridge_seen WHERE ref = ?', [ref]);
    else await putSeen(db, ref, parseLegacy(z.number(), at, `${where} (seen)`));
  }
  for (const [key, value] of record.outbox ?? []) {
    if (value === null) await db.write('DELETE FROM bridge_effects WHERE key = ?', [key]);
    else await writeEffect(db, parseLegacy(effectSchema, value, `${where} (outbox)`));
  }
}

function putSeen(db: SqlSession, ref: string, at: number): Promise<number> {
  return db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET at = excluded.at', [ref, at]);
}

/** One line of a shard (a file of the journal store, a row of `bridge_shards` or `bridge_outbox`) as a change set. */
export function shardRecord(kind: string, data: unknown, where: string): LegacyRecord {
  if (kind === 'seen') return { seen: [parseLegacy(seenLineSchema, data, where)] };
  const { archivedKey, key } = (typeof data === 'object' && data !== null ? data : {}) as { archivedKey?: unknown; key?: unknown };
  const named = archivedKey ?? key;
  if (typeof named !== 'string') throw legacyProblem('schema', where, 'has no key');
  return kind === 'conversations' ? { conversations: [[named, data]] } : { outbox: [[named, data]] };
}

/** The core of versions 1 and 2: meta, inbox, cursors, escalations; a migrated older file may carry the rest inline. */
const coreSchema = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  meta: z.unknown(),
  inbox: z.array(z.unknown()),
  cursors: z.record(z.string(), z.unknown()),
  escalations: z.record(z.string(), z.unknown()),
  /** The last journal record this snapshot holds: the import replays those after it. */
  journalSeq: z.number().int().nonnegative().default(0),
  conversations: z.array(z.looseObject({ key: z.string() })).default([]),
  seen: z.record(z.string(), z.unknown()).default({}),
  outbox: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Version 0, the prototype's file (no `schemaVersion`): conversations as an array, seen mention ids as a bare list,
 * cursors as raw values; they count as seen, and the cursors as updated, at the import.
 */
const v0Schema = z.object({
  conversations: z.array(z.looseObject({ key: z.string() })).default([]),
  seenIds: z.array(z.string()).default([]),
  cursors: z.record(z.string(), z.unknown()).default({}),
});

/** The core (`store.json`, the row `bridge_core`) as one change set, with its version and the journal records it holds. */
export function coreRecord(text: string, where: string, now: number): { record: LegacyRecord; version: number; journalSeq: number } {
  const data = parseLegacyJson(text, where);
  const version =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? ((data as { schemaVersion?: unknown }).schemaVersion ?? 0) : -1;
  if (typeof version === 'number' && version > 2)
    throw legacyProblem('schema', where, `was written by a newer engage-bridge (schemaVersion ${version})`);
  if (version === 0) {
    const v0 = parseLegacy(v0Schema, data, `${where} (schemaVersion 0)`);
    const record: LegacyRecord = {
      meta: { createdAt: now, values: {}, nextEscalationSeq: 1 },
      cursors: Object.entries(v0.cursors).map(([topic, value]) => [topic, { value, updatedAt: now }]),
      conversations: v0.conversations.map((c) => [c.key, c]),
      seen: v0.seenIds.map((id) => [id, now]),
    };
    return { record, version, journalSeq: 0 };
  }
  if (version !== 1 && version !== 2) throw legacyProblem('schema', where, 'is not a store (no valid schemaVersion at the top level)');
  const core = parseLegacy(coreSchema, data, where);
  const record: LegacyRecord = {
    meta: core.meta,
    inbox: core.inbox.map((m) => ['', m]),
    cursors: Object.entries(core.cursors),
    escalations: Object.entries(core.escalations),
    conversations: core.conversations.map((c) => [c.key, c]),
    seen: Object.entries(core.seen),
    outbox: Object.entries(core.outbox),
  };
  return { record, version, journalSeq: core.journalSeq };
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
      await db.write('DELETE FROM bridge_seen WHERE ref = ?', [row.ref]);
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
    const lines = [
      ...shards.flatMap((row) =>
        row.body.split('\n').map((line) => ({ kind: row.tbl, line, at: `${where} (bridge_shards ${row.tbl} ${row.idx})` })),
      ),
      ...outbox.map((row) => ({ kind: 'outbox', line: row.body, at: `${where} (bridge_outbox)` })),
    ];
    for (const { kind, line, at } of lines)
      if (line.length > 0) await applyLegacyRecord(db, shardRecord(kind, parseLegacyJson(line, at), at), at);
    const decoded = core === undefined ? undefined : coreRecord(core, `${where} (bridge_core)`, now);
    if (decoded) await applyLegacyRecord(db, decoded.record, `${where} (bridge_core)`);
    await finishLegacy(db, decoded?.version ?? 2, now);
    for (const table of ['bridge_core', 'bridge_shards', 'bridge_outbox']) await db.write(`DELETE FROM ${table}`);
    return true;
  });
  await db.flush();
  return moved;
}
