import { decodeCoreFile } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, coreFileText, emptyHotState, shardedTables } from './hot-state.js';
import type { ConversationSlot, HotState } from './hot-state.js';
import { keySeenByTopic } from './key-seen-by-topic.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from './load-shards.js';
import type { LineDecoder } from './load-shards.js';
import { auditEntrySchema, mentionRef, ownerSchema } from './records.js';
import type { AuditEntry } from './records.js';
import type { TrackedMap as ShardedMap } from './tracked-map.js';
import { hasSeenIn } from './state/inbox.js';
import { indexPendingEffects } from './state/outbox.js';
import { DELETE_TRANSCRIPT_SQL, joinConversation, splitConversation } from './sql-transcript.js';
import { StoreError, describeCause } from './store-error.js';

/**
 * The state's rows in the shared SQL schema (`sql-schema.ts`), read and written the same way by the SQLite and
 * PostgreSQL stores: the core state (meta, inbox, cursors, escalations) one row of `bridge_core`, then a row per
 * key: `bridge_conversations`, `bridge_seen`, `bridge_outbox`. A commit writes the keys changed since the last one
 * and deletes the keys gone. `bridge_shards` holds the version-1 layout (a row per shard), read once and deleted.
 */
export interface ShardRow {
  tbl: string;
  idx: number;
  body: string;
}

/** A conversation's row; `body` is left out by a store that reads it on demand (cold). */
export interface ConversationRow {
  key: string;
  owner: string | null;
  updated_at: number | null;
  archived_at: number | null;
  body?: string | null;
  /** The transcript lines' JSON, in order, when `body` is given. */
  lines?: string[];
}

export interface StateRows {
  core: string | undefined;
  conversations: ConversationRow[];
  seen: Array<{ ref: string; at: number }>;
  outbox: Array<{ body: string }>;
  /** Version-1 shard rows: loaded as changes, so the first commit writes them as rows per key. */
  shards: ShardRow[];
}

/** Builds the state from its rows; `migrated` when written by an older layout (write it again at once). */
export function stateFromRows(rows: StateRows, where: string, now: number): { state: HotState; migrated: boolean } {
  const decoded = rows.core === undefined ? undefined : decodeCoreFile(rows.core, `${where} (bridge_core)`, now);
  const state = decoded?.state ?? emptyHotState(now);
  for (const row of rows.conversations) state.conversations.set(row.key, slotOfRow(row, where));
  for (const row of rows.seen) {
    if (typeof row.at !== 'number') throw new StoreError('schema', `A row of ${where} (bridge_seen) does not match the schema.`);
    state.seen.set(row.ref, row.at);
  }
  for (const row of rows.outbox) loadLine(row.body, state.outbox, decodeEffectLine, `${where} (bridge_outbox)`);
  for (const [, table] of shardedTables(state)) table.takeChanged();
  const decoders: Record<string, LineDecoder<unknown>> = {
    conversations: decodeConversationLine as LineDecoder<unknown>,
    seen: decodeSeenLine as LineDecoder<unknown>,
    outbox: decodeEffectLine as LineDecoder<unknown>,
  };
  const tables = new Map(shardedTables(state));
  for (const row of rows.shards) {
    const table = tables.get(row.tbl);
    const decode = decoders[row.tbl];
    if (!table || !decode) continue;
    for (const line of row.body.split('\n')) {
      if (line.length > 0) loadLine(line, table, decode, `${where} (bridge_shards ${row.tbl} ${row.idx})`);
    }
  }
  const migrated = rows.shards.length > 0 || (decoded !== undefined && decoded.fromVersion < CURRENT_SCHEMA_VERSION);
  if (decoded && decoded.fromVersion < 2) keySeenByTopic(state);
  for (const mention of state.inbox)
    if (!hasSeenIn(state, mention.topicId, mention.id)) state.seen.set(mentionRef(mention.topicId, mention.id), now);
  indexPendingEffects(state);
  return { state, migrated };
}

function slotOfRow(row: ConversationRow, where: string): ConversationSlot {
  if (row.archived_at !== null) return { archivedAt: Number(row.archived_at) };
  const owner = ownerSchema.safeParse(row.owner);
  if (!owner.success || row.updated_at === null) {
    throw new StoreError('schema', `A row of ${where} (bridge_conversations) does not match the schema.`);
  }
  if (typeof row.body !== 'string') return { owner: owner.data, updatedAt: Number(row.updated_at) };
  let entry: [string, ConversationSlot] | undefined;
  loadLine(
    joinConversation(row.body, row.lines ?? []),
    { set: (_key, slot) => (entry = ['', slot]) },
    decodeConversationLine,
    `${where} (bridge_conversations)`,
  );
  return entry![1];
}

/** One statement of a commit, with `?` for its values (the PostgreSQL store numbers them). */
export interface SqlStatement {
  sql: string;
  values: Array<string | number | null>;
}

/** One commit's statements. `undo` marks the keys changed again after a failed write. */
export interface SqlWrite {
  statements: SqlStatement[];
  coreText: string;
  bytes: number;
  /** The conversations written in memory form (JSON), which a store reading on demand may then leave cold. */
  written: Array<[string, ConversationSlot]>;
  /** The transcripts to bring to these lines (`sql-transcript.ts`: the store reads the committed ones to compare). */
  transcripts: Array<{ key: string; lines: Array<{ at: number; json: string }> }>;
  undo(): void;
}

const UPSERT = {
  conversations:
    'INSERT INTO bridge_conversations (key, owner, updated_at, archived_at, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, updated_at = excluded.updated_at, archived_at = excluded.archived_at, body = excluded.body',
  seen: 'INSERT INTO bridge_seen (ref, at) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET at = excluded.at',
  outbox: 'INSERT INTO bridge_outbox (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body',
};
const DELETE = {
  conversations: 'DELETE FROM bridge_conversations WHERE key = ?',
  seen: 'DELETE FROM bridge_seen WHERE ref = ?',
  outbox: 'DELETE FROM bridge_outbox WHERE key = ?',
};

/**
 * Takes the changes since the last commit as statements: the core row when its text differs from `lastCore`, a row
 * per key changed, a DELETE per key gone; with `dropShards`, the version-1 shard rows go too.
 */
export function takeSqlWrite(state: HotState, lastCore: string | undefined, dropShards: boolean): SqlWrite {
  const statements: SqlStatement[] = [];
  const written: Array<[string, ConversationSlot]> = [];
  const transcripts: SqlWrite['transcripts'] = [];
  const taken: Array<[Changes, string[]]> = [];
  const coreText = coreFileText(state, 0);
  if (coreText !== lastCore) {
    statements.push({
      sql: 'INSERT INTO bridge_core (id, body) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
      values: [coreText],
    });
  }
  for (const key of takeKeys(state.conversations, taken)) {
    const slot = state.conversations.get(key);
    if (slot === undefined || 'archivedAt' in slot) {
      statements.push(
        slot === undefined
          ? { sql: DELETE.conversations, values: [key] }
          : { sql: UPSERT.conversations, values: [key, null, null, slot.archivedAt, null] },
        { sql: DELETE_TRANSCRIPT_SQL, values: [key] },
      );
    } else if ('json' in slot) {
      const { body, lines } = splitConversation(slot.json);
      statements.push({ sql: UPSERT.conversations, values: [key, slot.owner, slot.updatedAt, null, body] });
      transcripts.push({ key, lines });
      written.push([key, slot]);
    }
    // A cold slot is its row as committed: nothing to write.
  }
  for (const ref of takeKeys(state.seen, taken)) {
    const at = state.seen.get(ref);
    statements.push(at === undefined ? { sql: DELETE.seen, values: [ref] } : { sql: UPSERT.seen, values: [ref, at] });
  }
  for (const key of takeKeys(state.outbox, taken)) {
    const effect = state.outbox.get(key);
    statements.push(
      effect === undefined ? { sql: DELETE.outbox, values: [key] } : { sql: UPSERT.outbox, values: [key, JSON.stringify(effect)] },
    );
  }
  if (dropShards) statements.push({ sql: 'DELETE FROM bridge_shards', values: [] });
  return {
    statements,
    coreText,
    bytes: statementBytes(statements),
    written,
    transcripts,
    undo: () => {
      for (const [table, keys] of taken) table.markChanged(keys);
    },
  };
}

/** The bytes of the values the statements write (a number counts 8). */
export function statementBytes(statements: readonly SqlStatement[]): number {
  let bytes = 0;
  for (const statement of statements)
    for (const value of statement.values) bytes += typeof value === 'string' ? Buffer.byteLength(value) : 8;
  return bytes;
}

type Changes = Pick<ShardedMap<unknown>, 'takeChanged' | 'markChanged'>;

function takeKeys(map: Changes, taken: Array<[Changes, string[]]>): string[] {
  const keys = map.takeChanged();
  taken.push([map, keys]);
  return keys;
}

/** How many committed conversations a store reading on demand keeps in memory, the most recently written. */
export const RECENT_CONVERSATIONS = 1000;

/**
 * The conversations committed most recently stay in memory (a conversation in play is read and written several
 * times a message: reading its row each time cost a third more CPU per message); older ones are left cold, only
 * their owner and date in memory, unless they changed since their commit. Memory follows the conversations in
 * play, not the conversations stored.
 */
export class RecentConversations {
  private readonly recent = new Map<string, ConversationSlot>();
  constructor(private readonly limit = RECENT_CONVERSATIONS) {}

  committed(state: HotState, written: Array<[string, ConversationSlot]>): void {
    for (const [key, slot] of written) {
      this.recent.delete(key);
      this.recent.set(key, slot);
    }
    for (const [key, slot] of this.recent) {
      if (this.recent.size <= this.limit) break;
      this.recent.delete(key);
      if (state.conversations.get(key) === slot && 'json' in slot) {
        state.conversations.replaceQuietly(key, { owner: slot.owner, updatedAt: slot.updatedAt });
      }
    }
  }
}

function loadLine<V>(line: string, map: { set(key: string, value: V): void }, decode: LineDecoder<V>, where: string): void {
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

/** An audit row's entry; undefined when it cannot be read (skipped and counted by the caller). */
export function parseAuditRow(text: string): AuditEntry | undefined {
  try {
    const result = auditEntrySchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
