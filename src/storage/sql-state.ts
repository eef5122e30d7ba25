import { decodeCoreFile } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, coreFileText, emptyHotState, shardedTables } from './hot-state.js';
import type { HotState } from './hot-state.js';
import { keySeenByTopic } from './key-seen-by-topic.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from './load-shards.js';
import type { LineDecoder } from './load-shards.js';
import { auditEntrySchema, mentionRef } from './records.js';
import type { AuditEntry } from './records.js';
import type { ShardedMap } from './sharded-map.js';
import { hasSeenIn } from './state/inbox.js';
import { indexPendingEffects } from './state/outbox.js';
import { StoreError, describeCause } from './store-error.js';

/**
 * The state's rows in the shared SQL schema (`sql-schema.ts`), read and written the same way by the SQLite and
 * PostgreSQL stores: the core state one row of `bridge_core`, each conversation/seen/outbox shard one row of
 * `bridge_shards`.
 */
export interface ShardRow {
  tbl: string;
  idx: number;
  body: string;
}

/** Builds the state from its rows; `migrated` when the core was written by an older layout (write it again). */
export function stateFromRows(
  core: string | undefined,
  shards: ShardRow[],
  where: string,
  now: number,
): { state: HotState; migrated: boolean } {
  const decoded = core === undefined ? undefined : decodeCoreFile(core, `${where} (bridge_core)`, now);
  const state = decoded?.state ?? emptyHotState(now);
  const decoders: Record<string, LineDecoder<unknown>> = {
    conversations: decodeConversationLine as LineDecoder<unknown>,
    seen: decodeSeenLine as LineDecoder<unknown>,
    outbox: decodeEffectLine as LineDecoder<unknown>,
  };
  const tables = new Map(shardedTables(state));
  for (const row of shards) {
    const table = tables.get(row.tbl);
    const decode = decoders[row.tbl];
    if (!table || !decode) continue;
    loadShardText(row.body, table, decode, `${where} (bridge_shards ${row.tbl} ${row.idx})`);
  }
  for (const [, table] of tables) table.takeDirty();
  const migrated = decoded !== undefined && decoded.fromVersion < CURRENT_SCHEMA_VERSION;
  // Re-keyed after takeDirty: the changed shards are written with the first commit, in one transaction with the core.
  if (decoded && decoded.fromVersion < 2) keySeenByTopic(state);
  for (const mention of state.inbox)
    if (!hasSeenIn(state, mention.topicId, mention.id)) state.seen.set(mentionRef(mention.topicId, mention.id), now);
  indexPendingEffects(state);
  return { state, migrated };
}

/** One commit's rows: the core and the changed shards. `undo` marks the shards dirty again after a failed write. */
export interface SqlWrite {
  coreText: string;
  rows: ShardRow[];
  bytes: number;
  undo(): void;
}

/** Takes the changes since the last commit as whole rows (the journal's change sets are the file store's: dropped). */
export function takeSqlWrite(state: HotState): SqlWrite {
  const taken: Array<[ShardedMap<unknown>, number[]]> = [];
  const rows: ShardRow[] = [];
  for (const [name, table] of shardedTables(state)) {
    const dirty = table.takeDirty();
    taken.push([table, dirty]);
    for (const index of dirty) rows.push({ tbl: name, idx: index, body: table.shardText(index) });
  }
  for (const [, table] of shardedTables(state)) table.takeChanged();
  state.cursors.takeChanged();
  state.escalations.takeChanged();
  state.inboxChanges.clear();
  const coreText = coreFileText(state, 0);
  let bytes = Buffer.byteLength(coreText);
  for (const row of rows) bytes += Buffer.byteLength(row.body);
  return {
    coreText,
    rows,
    bytes,
    undo: () => {
      for (const [table, dirty] of taken) table.markDirty(dirty);
    },
  };
}

function loadShardText<V>(text: string, map: ShardedMap<V>, decode: LineDecoder<V>, where: string): void {
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
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
}

/** An audit row's entry; undefined when it cannot be read (skipped and counted by the caller). */
export function parseAuditRow(text: string): AuditEntry | undefined {
  try {
    const result = auditEntrySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
