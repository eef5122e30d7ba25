import { ANY_TOPIC, mentionRef } from '../records.js';
import type { InboundMention } from '../records.js';
import type { SqlSession } from './sql-session.js';

/** The inbox (`bridge_mentions`: a row per mention recorded and not yet processed) and the seen ids (`bridge_seen`). */

const NUMERIC = /^\d+$/;

/** Whether the mention `topicId`/`id` was recorded (or, before the upgrade to topic keys, its id in any topic). */
export async function seenIn(db: SqlSession, topicId: string, id: string): Promise<boolean> {
  const rows = await db.all('SELECT 1 AS one FROM bridge_seen WHERE ref = ? OR ref = ?', [
    mentionRef(topicId, id),
    mentionRef(ANY_TOPIC, id),
  ]);
  return rows.length > 0;
}

/** Records the mention unless seen before; returns whether it was new. */
export async function insertMention(db: SqlSession, mention: InboundMention, now: number): Promise<boolean> {
  if (await seenIn(db, mention.topicId, mention.id)) return false;
  const ref = mentionRef(mention.topicId, mention.id);
  await db.write('INSERT INTO bridge_seen (ref, at) VALUES (?, ?)', [ref, now]);
  await db.write('INSERT INTO bridge_mentions (ref, key, body) VALUES (?, ?, ?)', [ref, mention.key, JSON.stringify(mention)]);
  return true;
}

/** In `addedAt` then id order; service ids are numeric strings, so `9001` comes before `10000`. */
export async function pendingMentionRows(db: SqlSession, key: string | undefined): Promise<InboundMention[]> {
  const rows =
    key === undefined
      ? await db.all<{ body: string }>('SELECT body FROM bridge_mentions')
      : await db.all<{ body: string }>('SELECT body FROM bridge_mentions WHERE key = ?', [key]);
  const byId = (a: string, b: string) => (NUMERIC.test(a) && NUMERIC.test(b) && a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);
  return rows.map((row) => JSON.parse(row.body) as InboundMention).sort((a, b) => a.addedAt - b.addedAt || byId(a.id, b.id));
}
