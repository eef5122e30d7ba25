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
}

const WORDS: Record<SqlDialect, DialectWords> = {
  // SQLite numbers only an `INTEGER PRIMARY KEY` (the rowid, 64-bit) by itself.
  sqlite: { serialKey: 'INTEGER PRIMARY KEY', date: 'real' },
  postgres: { serialKey: 'bigserial PRIMARY KEY', date: 'double precision' },
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
