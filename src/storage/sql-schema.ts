/**
 * The one SQL schema of the SQLite and PostgreSQL stores: versioned steps, applied in order, each once. The
 * dialects differ only in the words below, kept here so the steps are written once.
 */
export type SqlDialect = 'sqlite' | 'postgres';

interface DialectWords {
  /** An auto-numbered 64-bit primary key column. */
  serialKey: string;
  /** A date in epoch milliseconds (a record's dates are plain numbers, not always whole). */
  date: string;
  /** Step 3's move of the core row's inbox and escalations to their rows (JSON functions differ). */
  coreListsToRows: string;
}

const WORDS: Record<SqlDialect, DialectWords> = {
  // SQLite numbers only an `INTEGER PRIMARY KEY` (the rowid, 64-bit) by itself.
  sqlite: {
    serialKey: 'INTEGER PRIMARY KEY',
    date: 'real',
    // `WHERE true`: SQLite's parser needs it between an INSERT's SELECT and its ON CONFLICT.
    coreListsToRows: `
      INSERT INTO bridge_inbox (ref, body) SELECT json_extract(m.value, '$.topicId') || '/' || json_extract(m.value, '$.id'), m.value
        FROM bridge_core c, json_each(c.body, '$.inbox') m WHERE true ON CONFLICT DO NOTHING;
      INSERT INTO bridge_escalations (id, body) SELECT e.key, e.value FROM bridge_core c, json_each(c.body, '$.escalations') e
        WHERE true ON CONFLICT DO NOTHING;
      UPDATE bridge_core SET body = json_set(body, '$.inbox', json('[]'), '$.escalations', json('{}'));`,
  },
  postgres: {
    serialKey: 'bigserial PRIMARY KEY',
    date: 'double precision',
    coreListsToRows: `
      INSERT INTO bridge_inbox (ref, body) SELECT (m ->> 'topicId') || '/' || (m ->> 'id'), m::text
        FROM bridge_core c, jsonb_array_elements(c.body::jsonb -> 'inbox') m ON CONFLICT DO NOTHING;
      INSERT INTO bridge_escalations (id, body) SELECT e.key, e.value::text FROM bridge_core c, jsonb_each(c.body::jsonb -> 'escalations') e
        ON CONFLICT DO NOTHING;
      UPDATE bridge_core SET body = jsonb_set(jsonb_set(body::jsonb, '{inbox}', '[]'), '{escalations}', '{}')::text;`,
  },
};

export interface SchemaStep {
  version: number;
  sql: string;
}

type StepText = (w: DialectWords) => string;

const STEPS: ReadonlyArray<{ version: number; sql: StepText }> = [
  {
    version: 1,
    sql: (w) => `
      CREATE TABLE bridge_core (id int PRIMARY KEY CHECK (id = 1), body text NOT NULL);
      CREATE TABLE bridge_shards (tbl text NOT NULL, idx int NOT NULL, body text NOT NULL, PRIMARY KEY (tbl, idx));
      CREATE TABLE bridge_audit (seq ${w.serialKey}, body text NOT NULL);
      CREATE TABLE bridge_archive (seq ${w.serialKey}, key text NOT NULL, body text NOT NULL);
      CREATE INDEX bridge_archive_key ON bridge_archive (key, seq);
      CREATE TABLE bridge_lease (
        id int PRIMARY KEY CHECK (id = 1),
        holder text NOT NULL,
        token bigint NOT NULL,
        expires_at timestamptz NOT NULL
      );
      INSERT INTO bridge_lease (id, holder, token, expires_at) VALUES (1, '', 0, 'epoch');
    `,
  },
  {
    // A row per key: a commit writes the keys it changed, not whole shards. A live conversation has owner,
    // updated_at and body (the record without its transcript, whose lines are rows of bridge_transcript); an
    // archived one only archived_at (its copy is in bridge_archive). The version-1 shard rows are read once at the
    // next open and deleted in the first commit (sql-state.ts).
    version: 2,
    sql: (w) => `
      CREATE TABLE bridge_conversations (
        key text PRIMARY KEY,
        owner text,
        updated_at ${w.date},
        archived_at ${w.date},
        body text
      );
      -- What the open reads of every conversation, in an index of its own: the scan never touches the bodies' pages.
      CREATE INDEX bridge_conversations_slots ON bridge_conversations (key, owner, updated_at, archived_at);
      CREATE TABLE bridge_transcript (
        key text NOT NULL,
        seq int NOT NULL,
        at ${w.date} NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (key, seq)
      );
      CREATE INDEX bridge_transcript_at ON bridge_transcript (at);
      CREATE TABLE bridge_seen (ref text PRIMARY KEY, at ${w.date} NOT NULL);
      CREATE TABLE bridge_outbox (key text PRIMARY KEY, body text NOT NULL);
    `,
  },
  {
    // Less written per message: the inbox and the escalations leave the core row for a row each (moved here, in the
    // step's own transaction; the core row keeps meta and cursors); an effect's status change is a small UPDATE of
    // `state` (its status fields as JSON, over `body`'s; `seq` tells the same effect from a new one under its key);
    // a conversation's turn fields (its dates, the latest mention) and its dialog state are columns of their own,
    // each written only when it changed.
    version: 3,
    sql: (w) => `
      CREATE TABLE bridge_inbox (ref text PRIMARY KEY, body text NOT NULL);
      CREATE TABLE bridge_escalations (id text PRIMARY KEY, body text NOT NULL);
      ${w.coreListsToRows}
      ALTER TABLE bridge_outbox ADD COLUMN seq bigint;
      ALTER TABLE bridge_outbox ADD COLUMN state text;
      ALTER TABLE bridge_conversations ADD COLUMN turn text;
      ALTER TABLE bridge_conversations ADD COLUMN dialog text;
    `,
  },
];

/** The steps in `dialect`'s words. */
export function schemaSteps(dialect: SqlDialect): SchemaStep[] {
  return STEPS.map((step) => ({ version: step.version, sql: step.sql(WORDS[dialect]) }));
}

/** The table of applied versions, the same in both dialects. */
export const SCHEMA_TABLE_SQL =
  'CREATE TABLE IF NOT EXISTS bridge_schema (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP)';

/** The refusal of a database newer than this engage-bridge, the same in both dialects. */
export function newerSchemaMessage(newest: number, known: number): string {
  return `the database schema is version ${newest}; this engage-bridge knows up to ${known}: upgrade engage-bridge`;
}
