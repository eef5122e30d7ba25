import { decodeCoreFile } from './decode-core-file.js';
import { CURRENT_SCHEMA_VERSION, emptyHotState, shardedTables } from './hot-state.js';
import type { ConversationSlot, HotState } from './hot-state.js';
import { keySeenByTopic } from './key-seen-by-topic.js';
import { decodeConversationLine, decodeEffectLine, decodeSeenLine } from './load-shards.js';
import type { LineDecoder } from './load-shards.js';
import { auditEntrySchema, escalationSchema, inboundMentionSchema, mentionRef, ownerSchema } from './records.js';
import type { AuditEntry, Escalation, InboundMention } from './records.js';
import { hasSeenIn } from './state/inbox.js';
import { indexPendingEffects } from './state/outbox.js';
import { joinConversation } from './sql-transcript.js';
import { StoreError, describeCause } from './store-error.js';

/**
 * The state read from its rows in the shared SQL schema (`sql-schema.ts`), the same way by the SQLite and PostgreSQL
 * stores: the core state (meta, cursors) one row of `bridge_core`, then a row per key: `bridge_inbox`,
 * `bridge_escalations`, `bridge_conversations` (+ `bridge_transcript`), `bridge_seen`, `bridge_outbox`. Writing them
 * is `sql-commit.ts`. `bridge_shards` holds the version-1 layout (a row per shard), read once and deleted.
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
  turn?: string | null;
  dialog?: string | null;
  /** The transcript lines' JSON, in order, when `body` is given. */
  lines?: string[];
}

/** An effect's row: `body` as first written, `state` its status fields since (`sql-commit.ts`). */
export interface EffectRow {
  body: string;
  state: string | null;
}

export interface StateRows {
  core: string | undefined;
  inbox: Array<{ body: string }>;
  escalations: Array<{ body: string }>;
  conversations: ConversationRow[];
  seen: Array<{ ref: string; at: number }>;
  outbox: EffectRow[];
  /** Version-1 shard rows: loaded as changes, so the first commit writes them as rows per key. */
  shards: ShardRow[];
}

export interface LoadedState {
  state: HotState;
  /** Written by an older layout: write it again at once. */
  migrated: boolean;
  /** The inbox mentions and escalations as their rows hold them (the commits write what differs). */
  inboxRows: Map<string, InboundMention>;
  escalationRows: Map<string, Escalation>;
}

/** The fields of an effect that change after it is written: a status change writes only these (`state`). */
export const EFFECT_STATE_FIELDS = ['status', 'attempts', 'updatedAt', 'retryAt', 'lastError', 'result'] as const;

/** Builds the state from its rows. */
export function stateFromRows(rows: StateRows, where: string, now: number): LoadedState {
  const decoded = rows.core === undefined ? undefined : decodeCoreFile(rows.core, `${where} (bridge_core)`, now);
  const state = decoded?.state ?? emptyHotState(now);
  // Step 3 moved the core row's inbox and escalations to their rows, emptying them there.
  const inboxRows = new Map<string, InboundMention>();
  for (const row of rows.inbox) {
    const mention = parseRow(row.body, (data) => inboundMentionSchema.safeParse(data), `${where} (bridge_inbox)`);
    inboxRows.set(mentionRef(mention.topicId, mention.id), mention);
    state.inbox.push(mention);
  }
  const escalationRows = new Map<string, Escalation>();
  for (const row of rows.escalations) {
    const escalation = parseRow(row.body, (data) => escalationSchema.safeParse(data), `${where} (bridge_escalations)`);
    escalationRows.set(escalation.id, escalation);
    state.escalations.set(escalation.id, escalation);
  }
  for (const row of rows.conversations) state.conversations.set(row.key, slotOfRow(row, where));
  for (const row of rows.seen) {
    if (typeof row.at !== 'number') throw new StoreError('schema', `A row of ${where} (bridge_seen) does not match the schema.`);
    state.seen.set(row.ref, row.at);
  }
  for (const row of rows.outbox) {
    const effect = parseRow(row.body, (data) => decodeEffectLine(effectOfRow(data, row.state), ''), `${where} (bridge_outbox)`);
    state.outbox.set(effect[0], effect[1]);
  }
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
  return { state, migrated, inboxRows, escalationRows };
}

/** An effect from its row: its status fields from `state` when a status change was written since. */
function effectOfRow(data: unknown, state: string | null): unknown {
  if (state === null || typeof data !== 'object' || data === null) return data;
  const effect: Record<string, unknown> = { ...data };
  for (const field of EFFECT_STATE_FIELDS) delete effect[field];
  Object.assign(effect, JSON.parse(state));
  // A finished effect keeps only its key, status and result in memory (`completeEffectIn`).
  if (effect.status === 'done') effect.payload = null;
  return effect;
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
    joinConversation({ body: row.body, turn: row.turn ?? null, dialog: row.dialog ?? null }, row.lines ?? []),
    { set: (_key, slot) => (entry = ['', slot]) },
    decodeConversationLine,
    `${where} (bridge_conversations)`,
  );
  return entry![1];
}

function parseRow<T>(
  text: string,
  decode: (data: unknown) => { success: true; data: T } | { success: false } | { entry: T } | { error: unknown },
  where: string,
): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new StoreError('corrupt', `A row of ${where} is not valid JSON (${describeCause(error)}).`);
  }
  const result = decode(data);
  if ('entry' in result) return result.entry;
  if ('success' in result && result.success) return result.data;
  throw new StoreError('schema', `A row of ${where} does not match the schema.`);
}

function loadLine<V>(line: string, map: { set(key: string, value: V): void }, decode: LineDecoder<V>, where: string): void {
  const [key, value] = parseRow(line, (data) => decode(data, line), where);
  map.set(key, value);
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
