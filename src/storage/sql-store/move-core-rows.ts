import { decodeCoreFile } from '../decode-core-file.js';
import { emptyHotState, hasSeenIn, shardedTables } from '../hot-state.js';
import { keySeenByTopic } from '../key-seen-by-topic.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from '../load-shards.js';
import type { LineDecoder } from '../load-shards.js';
import { mentionRef } from '../records.js';
import { StoreError, describeCause } from '../store-error.js';
import type { SqlSession } from './sql-session.js';
import { writeLegacyState } from './write-legacy-state.js';

const DECODERS: Record<string, LineDecoder<unknown>> = {
  conversations: decodeConversationLine as LineDecoder<unknown>,
  seen: decodeSeenLine as LineDecoder<unknown>,
  outbox: decodeEffectLine as LineDecoder<unknown>,
};

/**
 * Moves the state an older layout left (schema step 1: `bridge_shards`; step 2: the core row `bridge_core` with
 * meta, inbox, cursors and escalations, and `bridge_outbox`) into the tables of step 3, in one transaction, and
 * deletes the old rows. Conversations, transcripts and seen ids of step 2 are rows already and stay where they are
 * (seen ids of a version-1 core row are keyed by topic again: `keySeenByTopic`). Resolves true when it moved rows.
 */
export async function moveCoreRows(db: SqlSession, where: string, now: number): Promise<boolean> {
  const moved = await db.run(async () => {
    const core = (await db.get<{ body: string }>('SELECT body FROM bridge_core WHERE id = 1'))?.body;
    const shards = await db.all<{ tbl: string; idx: number; body: string }>('SELECT tbl, idx, body FROM bridge_shards ORDER BY tbl, idx');
    const outbox = await db.all<{ body: string }>('SELECT body FROM bridge_outbox');
    if (core === undefined && shards.length === 0 && outbox.length === 0) return false;
    const decoded = core === undefined ? undefined : decodeCoreFile(core, `${where} (bridge_core)`, now);
    const state = decoded?.state ?? emptyHotState(now);
    const rekey = decoded !== undefined && decoded.fromVersion < 2;
    if (rekey) {
      for (const row of await db.all<{ ref: string; at: number }>('SELECT ref, at FROM bridge_seen'))
        state.seen.set(row.ref, Number(row.at));
      await db.write('DELETE FROM bridge_seen');
    }
    for (const row of outbox) load(row.body, state.outbox, decodeEffectLine, `${where} (bridge_outbox)`);
    const tables = new Map(shardedTables(state));
    for (const row of shards) {
      const table = tables.get(row.tbl);
      const decode = DECODERS[row.tbl];
      if (!table || !decode) continue;
      for (const line of row.body.split('\n'))
        if (line.length > 0) load(line, table, decode, `${where} (bridge_shards ${row.tbl} ${row.idx})`);
    }
    if (rekey) keySeenByTopic(state);
    for (const m of state.inbox) if (!hasSeenIn(state, m.topicId, m.id)) state.seen.set(mentionRef(m.topicId, m.id), now);
    await writeLegacyState(db, state);
    for (const table of ['bridge_core', 'bridge_shards', 'bridge_outbox']) await db.write(`DELETE FROM ${table}`);
    return true;
  });
  await db.flush();
  return moved;
}

function load<V>(line: string, map: { set(key: string, value: V): void }, decode: LineDecoder<V>, where: string): void {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (error) {
    throw new StoreError('corrupt', `A row of ${where} is not valid JSON (${describeCause(error)}).`);
  }
  const result = decode(data, line);
  if ('error' in result) throw new StoreError('schema', `A row of ${where} does not match the schema.`);
  map.set(result.entry[0], result.entry[1]);
}
